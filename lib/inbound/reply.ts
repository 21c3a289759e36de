import 'server-only';
import { ACTION_INPUTS } from '@/lib/actions';
import { rethrowAsApiError } from '@/lib/api';
import { submitAction, type SubmitOutcome } from '@/lib/autonomy';
import { requireConversationAccess, sendMessage, writeMessageIn, type SendOptions, type SentMessage } from '@/lib/chat';
import { asService } from '@/lib/db';

/** What became of an agent's answer to a customer, stamped on its message. */
export type CustomerReplyState =
  | { status: 'proposed'; decisionId: string }
  | { status: 'queued'; decisionId: string }
  | { status: 'not_sent'; reason: string; decisionId?: string };

const stateOf = (outcome: SubmitOutcome): CustomerReplyState => {
  switch (outcome.status) {
    case 'proposed':
      return { status: 'proposed', decisionId: outcome.decisionId };
    case 'executed':
      return { status: 'queued', decisionId: outcome.decisionId };
    case 'duplicate':
      return { status: 'not_sent', reason: `Already ${outcome.existing}.`, decisionId: outcome.decisionId };
    case 'failed':
      return { status: 'not_sent', reason: outcome.error, decisionId: outcome.decisionId };
    default:
      return { status: 'not_sent', reason: outcome.reason };
  }
};

/**
 * An agent's message, through the one send path. In a customer conversation the message is also its
 * answer to the customer, and sending that is a write: in the same transaction the `customer_reply`
 * action goes through autonomy (proposed for the owner's OK, queued to the customer under `auto`,
 * nothing under `off` or a kill switch), and the message records which (`payload.customerReply`).
 */
export async function sendAgentMessage(agentId: string, conversationId: string, body: string, options: SendOptions = {}): Promise<SentMessage> {
  const actor = { kind: 'agent', agentId } as const;
  const kind = await asService(async (tx) => {
    await requireConversationAccess(tx, actor, conversationId);
    const [row] = await tx.query<{ kind: string }>(`select kind from public.conversations where id = $1`, [conversationId]);
    return row!.kind;
  }).catch(rethrowAsApiError);
  if (kind !== 'customer') return sendMessage(actor, conversationId, body, options);
  return asService(async (tx) => {
    const sent = await writeMessageIn(tx, actor, conversationId, body, { ...options, extractThreads: false });
    const input = { conversationId, messageId: sent.id, message: sent.body };
    const parsed = ACTION_INPUTS.customer_reply.safeParse(input);
    const state: CustomerReplyState = parsed.success
      ? stateOf(await submitAction(tx, { workspaceId: sent.workspaceId, type: 'customer_reply', input: parsed.data, trigger: 'agent:reply', now: new Date() }))
      : { status: 'not_sent', reason: 'The answer is too long for a message to a customer.' };
    await tx.query(`update public.messages set payload = payload || $2::text::jsonb where id = $1`, [sent.id, JSON.stringify({ customerReply: state })]);
    return { ...sent, payload: { ...sent.payload, customerReply: state } };
  }).catch(rethrowAsApiError);
}
