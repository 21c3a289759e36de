import { z } from 'zod';
import type { Tx } from '@/lib/db';
import { DAY } from './contact';
import { queueMessage } from './outbox';
import type { ActionDefinition, Channel } from './types';

/** An SMS or WhatsApp answer longer than this is cut by the outbox's limit; an email gets the same bound. */
export const REPLY_MAX = 1_600;

/** A reply waits this long for an OK: a customer who wrote yesterday is better answered by a person now (WhatsApp's own window is 24 hours too). */
export const REPLY_APPROVAL_MS = DAY;

export const customerReplyInput = z.object({
  conversationId: z.uuid().describe('The customer conversation.'),
  messageId: z.uuid().describe("The agent's message in it that holds the reply."),
  message: z.string().trim().min(1).max(REPLY_MAX).describe('The exact text the customer receives.'),
});

interface ContactRow {
  customer_id: string | null;
  customer_name: string | null;
  consent_messages: boolean | null;
  phone: string | null;
  email: string | null;
  channel: Channel;
  opted_out_at: Date | null;
  subject: string | null;
}

async function loadContact(tx: Tx, workspaceId: string, conversationId: string, lock = false): Promise<ContactRow | undefined> {
  const [row] = await tx.query<ContactRow>(
    `select cc.customer_id, c.name as customer_name, c.consent_messages, cc.phone, cc.email, cc.channel, cc.opted_out_at,
            (select m.payload #>> '{inbound,subject}' from public.messages m
              where m.conversation_id = cc.conversation_id and m.author_kind = 'customer' and m.payload #>> '{inbound,subject}' is not null
              order by m.seq desc limit 1) as subject
       from public.customer_conversations cc
       left join public.customers c on c.workspace_id = cc.workspace_id and c.id = cc.customer_id
      where cc.workspace_id = $1 and cc.conversation_id = $2${lock ? ' for update of cc' : ''}`,
    [workspaceId, conversationId],
  );
  return row;
}

/** Why nobody may write to this contact now, or null. The one rule, read when proposing and again when sending. */
export function replyRefusal(contact: Pick<ContactRow, 'customer_id' | 'consent_messages' | 'opted_out_at'>): string | null {
  // A customer's consent is their record's (STOP clears it; the owner may record it again when they ask);
  // a sender who is nobody's customer has only the conversation's opt-out.
  if (contact.customer_id) {
    return contact.consent_messages ? null : 'The customer has not agreed to receive messages (or said STOP): record their consent on their page if they ask for an answer.';
  }
  return contact.opted_out_at ? 'This sender asked not to be written to (STOP): nothing more may be sent to them.' : null;
}

const recipientOf = (c: ContactRow) => (c.channel === 'email' ? c.email : c.phone);
const replySubject = (subject: string | null, workspaceName: string) =>
  (subject ? (/^re:/i.test(subject) ? subject : `Re: ${subject}`) : workspaceName).slice(0, 200);

/**
 * An agent's answer in a customer conversation, sent to the customer on the channel they last wrote on.
 * A reply is a write like any other action: autonomy proposes it, runs it or refuses it.
 */
export const customerReply: ActionDefinition<z.infer<typeof customerReplyInput>> = {
  type: 'customer_reply',

  async prepare(tx, { workspace, now }, input) {
    const contact = await loadContact(tx, workspace.id, input.conversationId);
    if (!contact) return { ok: false, reason: 'This is not a conversation with a customer.' };
    const refusal = replyRefusal(contact);
    if (refusal) return { ok: false, reason: refusal };
    const to = recipientOf(contact);
    if (!to) return { ok: false, reason: 'There is no address to answer on.' };
    return {
      ok: true,
      action: {
        type: 'customer_reply',
        planet: 'crm',
        args: {
          conversationId: input.conversationId,
          messageId: input.messageId,
          customerId: contact.customer_id,
          channel: contact.channel,
          to,
          subject: contact.channel === 'email' ? replySubject(contact.subject, workspace.name) : '',
          message: input.message,
        },
        details: { customerName: contact.customer_name ?? to, channel: contact.channel, conversationId: input.conversationId },
        dedupeKey: `customer_reply:${input.messageId}`,
        expiresAt: new Date(now.getTime() + REPLY_APPROVAL_MS),
      },
    };
  },

  async execute(tx, { workspace, now }, args, decisionId) {
    const contact = await loadContact(tx, workspace.id, String(args.conversationId), true);
    if (!contact) return { ok: false, error: 'The conversation with the customer no longer exists.' };
    const refusal = replyRefusal(contact);
    if (refusal) return { ok: false, error: refusal };
    const message = await queueMessage(tx, {
      workspaceId: workspace.id,
      timeZone: workspace.timeZone,
      decisionId,
      customerId: contact.customer_id,
      channel: args.channel as Channel,
      recipient: String(args.to),
      recipientName: (contact.customer_name ?? '').slice(0, 120),
      subject: String(args.subject ?? ''),
      body: String(args.message),
      now,
    });
    return { ok: true, result: { messageIds: [message.id] } };
  },

  // Nothing besides the message, which the caller cancels.
  async undo() {},
};
