import type { ActionType, MessageStatus } from '@/lib/actions';
import type { Planet } from '@/components/home/types';

export type Level = 'off' | 'propose' | 'auto';
export type Tier = 'paused' | 'off' | 'propose' | 'auto';

/** GET/PATCH /api/workspaces/:id/autonomy, as the browser receives it. */
export interface AutonomySettingsView {
  paused: boolean;
  planets: Array<{ planet: Planet; autonomy: Level; paused: boolean }>;
  actions: Array<{ actionType: ActionType; planet: Planet; auto: boolean; tier: Tier }>;
  suggestions: Array<{ actionType: ActionType; planet: Planet; approvals: number }>;
}

/** An outbox message as the browser receives it. */
export interface OutboxMessageItem {
  id: string;
  decisionId: string | null;
  channel: 'sms' | 'email' | 'whatsapp';
  recipient: string;
  recipientName: string;
  subject: string;
  body: string;
  status: MessageStatus;
  sendAfter: string;
  sentAt: string | null;
  deliveredAt: string | null;
  cancelledAt: string | null;
  error: string | null;
  createdAt: string;
}
