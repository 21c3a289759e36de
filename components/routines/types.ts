import type { Wire } from '@/lib/api';
import type { Routine, RoutineRun, RoutineSchedule } from '@/lib/schedule';

/** Routines as Multiverbe's own API sends them: lib/schedule's types through the serializer. */
export type ScheduleView = Wire<RoutineSchedule>;
export type RoutineRunView = Wire<RoutineRun>;
export type RoutineView = Wire<Routine>;

export interface AgentOption {
  id: string;
  name: string;
}

/** The backend's rules, sent by the page so the form can say them before a round trip. */
export interface RoutineLimits {
  perAgent: number;
  minMinutes: number;
  maxMinutes: number;
  /** How many runs History shows. */
  historyRuns: number;
}

export const routinesKey = (workspaceId: string) => ['workspaces', workspaceId, 'routines'] as const;

export const routineRunsKey = (workspaceId: string, routineId: string) => ['workspaces', workspaceId, 'routine-runs', routineId] as const;
