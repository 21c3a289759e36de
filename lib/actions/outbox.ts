import type { Tx } from '@/lib/db';
import { sendEvent } from '@/lib/events';
import { outOfQuietHours } from './quiet-hours';
import type { Channel } from './types';

/**
 * The life of an outgoing message (docs/messages.md): queued → sending → sent → delivered, or failed /
 * undeliverable; cancelled while still queued. Only a provider moves a message past `queued` (lib/channels
 * hands due messages to SMTP or Twilio), and only when it really took it (`sent`) or reported it arrived
 * (`delivered`).
 */
export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed', 'undeliverable', 'cancelled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * A queued message is not handed on before this much time has passed (and never in the quiet hours): the
 * moment a provider may send it, which is also the least time "undo" has to stop it.
 */
export const SEND_DELAY_MS = 30_000;

export interface OutgoingMessage {
  workspaceId: string;
  timeZone: string;
  decisionId: string | null;
  customerId: string | null;
  channel: Channel;
  recipient: string;
  recipientName: string;
  subject?: string;
  body: string;
  now: Date;
  /** Due at once, neither held for undo nor moved out of the quiet hours: the confirmation of an opt-out (lib/inbound), which is owed now. */
  immediate?: boolean;
}

/** Queues a message in the caller's transaction; the delivery event commits (locally) with it. */
export async function queueMessage(tx: Tx, message: OutgoingMessage): Promise<{ id: string; sendAfter: Date }> {
  const sendAfter = message.immediate ? message.now : await outOfQuietHours(tx, new Date(message.now.getTime() + SEND_DELAY_MS), message.timeZone);
  const [row] = await tx.query<{ id: string }>(
    `insert into public.outbox_messages
       (workspace_id, decision_id, customer_id, channel, recipient, recipient_name, subject, body, send_after, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
    [
      message.workspaceId, message.decisionId, message.customerId, message.channel, message.recipient, message.recipientName,
      message.subject ?? '', message.body, sendAfter.toISOString(), message.now.toISOString(),
    ],
  );
  await sendEvent({ name: 'messages/queued', data: { workspaceId: message.workspaceId, messageId: row!.id, sendAfter: sendAfter.toISOString() } }, tx);
  return { id: row!.id, sendAfter };
}

/**
 * Cancels the due queued messages (all, or `messageIds`) whose workspace or planet a kill switch stopped;
 * the rest are lib/channels' to hand to a provider (`sendDueMessages`).
 */
export async function deliverDueMessages(tx: Tx, now: Date, messageIds?: string[]): Promise<{ cancelled: number }> {
  const rows = await tx.query<{ id: string }>(
    `update public.outbox_messages m
        set status = 'cancelled', cancelled_at = $1::timestamptz, error = 'Stopped by a kill switch before it was sent.', next_attempt_at = null
      where m.id in (
              select q.id from public.outbox_messages q
                left join public.agent_decisions d on d.id = q.decision_id
               where q.status = 'queued' and coalesce(q.next_attempt_at, q.send_after) <= $1 and ($2::uuid[] is null or q.id = any ($2::uuid[]))
                 and case when d.id is not null then private.action_tier(q.workspace_id, d.planet, d.action_type) = 'paused'
                          else coalesce((select a.paused from public.workspace_autonomy a where a.workspace_id = q.workspace_id), false)
                     end
                 for update of q skip locked)
      returning m.id`,
    [now.toISOString(), messageIds ?? null],
  );
  return { cancelled: rows.length };
}

/** Cancels queued messages (of a decision, a planet or the workspace); returns how many. */
export async function cancelQueuedMessages(tx: Tx, where: { workspaceId: string; messageIds?: string[]; planet?: string }, now: Date, reason: string) {
  const rows = await tx.query<{ id: string }>(
    `update public.outbox_messages m set status = 'cancelled', cancelled_at = $2, error = $3, next_attempt_at = null
      where m.workspace_id = $1 and m.status = 'queued'
        and ($4::uuid[] is null or m.id = any ($4::uuid[]))
        and ($5::text is null or exists (select 1 from public.agent_decisions d where d.id = m.decision_id and d.planet = $5))
      returning m.id`,
    [where.workspaceId, now.toISOString(), reason, where.messageIds ?? null, where.planet ?? null],
  );
  return rows.length;
}
