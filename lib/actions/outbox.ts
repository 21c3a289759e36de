import type { Tx } from '@/lib/db';
import { sendEvent } from '@/lib/events';
import { outOfQuietHours } from './quiet-hours';
import type { Channel } from './types';

/**
 * The life of an outgoing message (docs/planets-and-autonomy.md, Outbox):
 * queued → sending → sent → delivered, or failed; cancelled while still queued. Only a provider may move
 * a message past `queued`, and only when it really handed it on (`sent`) or heard it arrived
 * (`delivered`). No SMS or email provider is connected yet, so every message stays `queued`: nothing has
 * left the app, and every screen says so.
 */
export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed', 'cancelled'] as const;
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
 * The pass over due queued messages, where a provider will take them (a later issue connects SMTP and
 * Twilio here; that is the only code that may set `sending`, `sent`, `delivered` or a provider's
 * `failed`). A message whose workspace or planet a kill switch stopped is cancelled. With no provider
 * connected every other due message stays `queued`: it has not left, and saying `sent` would be a lie.
 * `messageIds` limits the pass to those messages.
 */
export async function deliverDueMessages(tx: Tx, now: Date, messageIds?: string[]): Promise<{ cancelled: number }> {
  const rows = await tx.query<{ id: string }>(
    `update public.outbox_messages m
        set status = 'cancelled', cancelled_at = $1::timestamptz, error = 'Stopped by a kill switch before it was sent.'
      where m.id in (
              select q.id from public.outbox_messages q
                left join public.agent_decisions d on d.id = q.decision_id
               where q.status = 'queued' and q.send_after <= $1 and ($2::uuid[] is null or q.id = any ($2::uuid[]))
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
    `update public.outbox_messages m set status = 'cancelled', cancelled_at = $2, error = $3
      where m.workspace_id = $1 and m.status = 'queued'
        and ($4::uuid[] is null or m.id = any ($4::uuid[]))
        and ($5::text is null or exists (select 1 from public.agent_decisions d where d.id = m.decision_id and d.planet = $5))
      returning m.id`,
    [where.workspaceId, now.toISOString(), reason, where.messageIds ?? null, where.planet ?? null],
  );
  return rows.length;
}
