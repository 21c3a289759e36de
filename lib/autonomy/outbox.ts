import { cancelQueuedMessages, type Channel, type MessageStatus } from '@/lib/actions';
import { conflict, isUuid, notFound, rethrowAsApiError } from '@/lib/api';
import { channelConnectedSql } from '@/lib/channels';
import { elevated, withUser, type SessionUser } from '@/lib/db';
import { undoDecision } from './decisions';
import { requireManager, roleIn } from './roles';

export interface OutboxMessageView {
  id: string;
  decision_id: string | null;
  channel: Channel;
  recipient: string;
  recipient_name: string;
  subject: string;
  body: string;
  /** queued → sending → sent → delivered, or failed / cancelled (lib/actions/outbox.ts): `sent` only once a provider took it. */
  status: MessageStatus;
  send_after: Date;
  sent_at: Date | null;
  delivered_at: Date | null;
  cancelled_at: Date | null;
  /** The provider's reason: why it failed, or why its last attempt did while it waits for the next. */
  error: string | null;
  next_attempt_at: Date | null;
  /** A provider would take it now (lib/channels); false: it waits for email or SMS to be connected. */
  connected: boolean;
  created_at: Date;
}

/** The workspace's outgoing messages, newest first (any member). */
export async function listOutbox(
  user: SessionUser,
  workspaceId: string,
  filter: { status?: OutboxMessageView['status']; limit?: number; before?: Date } = {},
): Promise<OutboxMessageView[]> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  return withUser(user, async (tx) => {
    await roleIn(tx, user, workspaceId);
    return tx.query<OutboxMessageView>(
      `select o.id, o.decision_id, o.channel, o.recipient, o.recipient_name, o.subject, o.body, o.status, o.send_after, o.sent_at, o.delivered_at,
              o.cancelled_at, o.error, o.next_attempt_at, ${channelConnectedSql('o')} as connected, o.created_at
         from public.outbox_messages o
        where workspace_id = $1 and ($2::text is null or status = $2) and ($3::timestamptz is null or created_at < $3)
        order by created_at desc, id limit $4`,
      [workspaceId, filter.status ?? null, filter.before?.toISOString() ?? null, filter.limit ?? 50],
    );
  }).catch(rethrowAsApiError);
}

/**
 * Stops a message that is still queued. A message an action sent is undone with its action (so the
 * reminder mark or the waitlist offer is reverted too); any other is just cancelled.
 */
export async function cancelMessage(user: SessionUser, workspaceId: string, messageId: string, now = new Date()): Promise<{ messageId: string; status: 'cancelled' }> {
  if (!isUuid(workspaceId) || !isUuid(messageId)) throw notFound('message');
  const decisionId = await withUser(user, async (tx) => {
    await requireManager(tx, user, workspaceId, 'stopMessages');
    const [message] = await tx.query<{ status: MessageStatus; decision_id: string | null }>(
      `select status, decision_id from public.outbox_messages where workspace_id = $1 and id = $2`,
      [workspaceId, messageId],
    );
    if (!message) throw notFound('message');
    if (message.status !== 'queued') throw conflict(`api.outbox.already.${message.status}`, undefined, { status: message.status });
    if (message.decision_id) return message.decision_id;
    await elevated(tx, (s) => cancelQueuedMessages(s, { workspaceId, messageIds: [messageId] }, now, 'Cancelled before it was sent.'));
    return null;
  }).catch(rethrowAsApiError);
  if (decisionId) await undoDecision(user, workspaceId, decisionId, now);
  return { messageId, status: 'cancelled' };
}
