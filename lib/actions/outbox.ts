import type { Tx } from '@/lib/db';
import { sendEvent } from '@/lib/events';
import { outOfQuietHours } from './quiet-hours';
import type { Channel } from './types';

/**
 * The message outbox. No SMS or email provider is connected yet: a queued message becomes `sent` when
 * the delivery function (inngest/functions/deliver-messages.ts) finds it due. The delay below is the
 * window in which "undo" can still stop it; delivery is also held back out of the quiet hours. A real
 * provider replaces the one update in `deliverDueMessages`.
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
}

/** Queues a message in the caller's transaction; the delivery event commits (locally) with it. */
export async function queueMessage(tx: Tx, message: OutgoingMessage): Promise<{ id: string; sendAfter: Date }> {
  const sendAfter = await outOfQuietHours(tx, new Date(message.now.getTime() + SEND_DELAY_MS), message.timeZone);
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
 * Marks due queued messages as sent (the stand-in for a provider), or cancels them when a kill switch
 * of their workspace or planet is on. `messageIds` limits the pass to those messages.
 */
export async function deliverDueMessages(tx: Tx, now: Date, messageIds?: string[]): Promise<{ sent: number; cancelled: number }> {
  const rows = await tx.query<{ status: string }>(
    `update public.outbox_messages m
        set status = case when x.paused then 'cancelled' else 'sent' end,
            sent_at = case when x.paused then null else $1::timestamptz end,
            cancelled_at = case when x.paused then $1::timestamptz end,
            error = case when x.paused then 'Stopped by a kill switch before it was sent.' end
       from (select q.id,
                    case when d.id is not null then private.action_tier(q.workspace_id, d.planet, d.action_type) = 'paused'
                         else coalesce((select a.paused from public.workspace_autonomy a where a.workspace_id = q.workspace_id), false)
                    end as paused
               from public.outbox_messages q
               left join public.agent_decisions d on d.id = q.decision_id
              where q.status = 'queued' and q.send_after <= $1 and ($2::uuid[] is null or q.id = any ($2::uuid[]))
              for update of q skip locked) x
      where m.id = x.id
      returning m.status`,
    [now.toISOString(), messageIds ?? null],
  );
  return { sent: rows.filter((r) => r.status === 'sent').length, cancelled: rows.filter((r) => r.status === 'cancelled').length };
}

/**
 * Cancels queued messages. Returns how many were cancelled and how many of those asked for had already
 * left (sent, failed or cancelled before).
 */
export async function cancelQueuedMessages(tx: Tx, where: { workspaceId: string; messageIds?: string[]; planet?: string }, now: Date, reason: string) {
  const rows = await tx.query<{ id: string }>(
    `update public.outbox_messages m set status = 'cancelled', cancelled_at = $2, error = $3
      where m.workspace_id = $1 and m.status = 'queued'
        and ($4::uuid[] is null or m.id = any ($4::uuid[]))
        and ($5::text is null or exists (select 1 from public.agent_decisions d where d.id = m.decision_id and d.planet = $5))
      returning m.id`,
    [where.workspaceId, now.toISOString(), reason, where.messageIds ?? null, where.planet ?? null],
  );
  return rows.length;
}
