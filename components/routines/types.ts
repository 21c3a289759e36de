/** Routines as Multiverbe's own API returns them (lib/schedule, serialized: camelCase, dates as ISO strings). */

export type ScheduleView = { kind: 'interval'; minutes: number } | { kind: 'cron'; cron: string };

export interface RoutineRunView {
  id: string;
  dueAt: string;
  status: 'pending' | 'sent' | 'failed';
  manual: boolean;
  conversationId: string | null;
  messageId: string | null;
  error: string | null;
  createdAt: string;
}

export interface RoutineView {
  id: string;
  workspaceId: string;
  agent: { id: string; name: string };
  name: string;
  instruction: string;
  schedule: ScheduleView;
  timeZone: string;
  enabled: boolean;
  /** Null while paused. */
  nextRunAt: string | null;
  lastRun: RoutineRunView | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

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
