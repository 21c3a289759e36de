export {
  MAX_INTERVAL_MINUTES,
  MAX_ROUTINES_PER_AGENT,
  MIN_INTERVAL_MINUTES,
  createRoutine,
  deleteRoutine,
  deliverPendingRuns,
  listRoutines,
  nextRunAfter,
  routineInputSchema,
  routinePatchSchema,
  runRoutineNow,
  scheduleDueRoutines,
  updateRoutine,
} from './routines';
export type { Routine, RoutineRun, RoutineSchedule } from './routines';
