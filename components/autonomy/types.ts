import type { Wire } from '@/lib/api';
import type { AutonomySettings, OutboxMessageView } from '@/lib/autonomy';

export type { AutonomyLevel as Level, Tier } from '@/lib/autonomy';

/** GET/PATCH /api/workspaces/:id/autonomy, as the browser receives it. */
export type AutonomySettingsView = Wire<AutonomySettings>;

/** An outbox message as the browser receives it. */
export type OutboxMessageItem = Wire<OutboxMessageView>;
