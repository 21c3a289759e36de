export {
  MAX_INTERVAL_MINUTES,
  MAX_ROUTINES_PER_AGENT,
  MIN_INTERVAL_MINUTES,
  ROUTINE_RUN_STATUSES,
  RUN_HISTORY_LIMIT,
  createRoutine,
  deleteRoutine,
  deliverPendingRuns,
  listRoutineRuns,
  listRoutines,
  nextRunAfter,
  routineInputSchema,
  routinePatchSchema,
  runRoutineNow,
  scheduleDueRoutines,
  updateRoutine,
} from './routines';
export type { Routine, RoutineRun, RoutineSchedule } from './routines';
