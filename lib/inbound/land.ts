import 'server-only';
import { randomUUID } from 'node:crypto';
import { actionTier } from '@/lib/autonomy';
import { queueMessage, replyRefusal, type Channel } from '@/lib/actions';
import { writeCustomerMessage } from '@/lib/chat';
import { asService, type Tx } from '@/lib/db';
import { publish } from '@/lib/realtime';
import type { Locale } from '@/lib/i18n';
import { isStopRequest, stopConfirmation } from './stop';

/** What came back, from whichever provider: the address is E.164 for SMS and WhatsApp, lower case for email. */
export interface InboundMessage {
  workspaceId: string;
  channel: Channel;
  from: { phone: string } | { email: string };
  body: string;
  /** The provider's id of the message (Twilio's MessageSid, the email's Message-ID): a retry lands once. */
  externalId: string;
  /** An email's subject, kept for the reply's "Re:". */
  subject?: string;
  now: Date;
}

/** Why nobody was woken to answer (shown in the conversation), when nobody was. */
export type Unanswered = 'stop' | 'opted_out' | 'no_consent' | 'autonomy_off' | 'paused';

export interface Landed {
  conversationId: string;
  messageId: string;
  customerId: string | null;
  /** The message was an opt-out (STOP…); `confirmationId` is the one confirmation, when this opt-out queued it. */
  stop: boolean;
  confirmationId: string | null;
  unanswered: Unanswered | null;
  /** The provider sent it before: nothing new was written. */
  duplicate: boolean;
}

/** Longest customer message kept (an email may quote a whole thread). */
const BODY_MAX = 8_000;

interface ContactRow {
  conversation_id: string;
  customer_id: string | null;
  opted_out_at: Date | null;
}

/**
 * A customer's message lands in their conversation (created on the first one), in one transaction: an
 * opt-out revokes consent at once and queues its one confirmation; anything else wakes the workspace's
 * agents, unless nobody may answer (autonomy off or paused, no consent, opted out). Idempotent on the
 * provider's message id. Trusted code (the webhooks have authenticated the provider).
 */
export async function landInbound(message: InboundMessage): Promise<Landed> {
  const body = message.body.trim().slice(0, BODY_MAX) || '(empty message)';
  return asService(async (tx) => {
    const [seen] = await tx.query<{ id: string; conversation_id: string }>(
      `select id, conversation_id from public.messages
        where workspace_id = $1 and author_kind = 'customer' and payload #>> '{inbound,externalId}' = $2`,
      [message.workspaceId, message.externalId],
    );
    if (seen) {
      return { conversationId: seen.conversation_id, messageId: seen.id, customerId: null, stop: false, confirmationId: null, unanswered: null, duplicate: true };
    }
    const workspace = await loadWorkspace(tx, message.workspaceId);
    const customer = await findCustomer(tx, message.workspaceId, message.from);
    const contact = await openConversation(tx, message, customer);
    const name = customer?.name ?? addressOf(message.from);
    const inbound = { channel: message.channel, externalId: message.externalId, ...(message.subject ? { subject: message.subject.slice(0, 200) } : {}) };

    if (isStopRequest(body)) {
      const confirmationId = await optOut(tx, message, contact, customer, workspace);
      const written = await writeCustomerMessage(tx, contact.conversation_id, { name, body, payload: { inbound: { ...inbound, stop: true } }, wake: false });
      return { conversationId: contact.conversation_id, messageId: written.id, customerId: customer?.id ?? null, stop: true, confirmationId, unanswered: 'stop', duplicate: false };
    }

    const unanswered = await whyUnanswered(tx, message.workspaceId, contact, customer);
    const written = await writeCustomerMessage(tx, contact.conversation_id, {
      name,
      body,
      payload: { inbound: { ...inbound, ...(unanswered ? { unanswered } : {}) } },
      wake: unanswered === null,
    });
    return { conversationId: contact.conversation_id, messageId: written.id, customerId: customer?.id ?? null, stop: false, confirmationId: null, unanswered, duplicate: false };
  });
}

const addressOf = (from: InboundMessage['from']) => ('phone' in from ? from.phone : from.email);

async function loadWorkspace(tx: Tx, workspaceId: string) {
  const [row] = await tx.query<{ name: string; time_zone: string; locale: Locale }>(`select name, time_zone, locale from public.workspaces where id = $1`, [workspaceId]);
  if (!row) throw new Error(`workspace ${workspaceId} does not exist`);
  return row;
}

interface CustomerRow {
  id: string;
  name: string;
  consent_messages: boolean;
}

/**
 * The customer the address belongs to: the same email in any case, or the same phone number however it
 * was typed (its digits, with or without the country code: a number of 8 digits or more recorded without
 * +39 matches the same number from abroad's +39). The longest-standing customer when several share it.
 */
async function findCustomer(tx: Tx, workspaceId: string, from: InboundMessage['from']): Promise<CustomerRow | undefined> {
  if ('email' in from) {
    const [row] = await tx.query<CustomerRow>(
      `select id, name, consent_messages from public.customers where workspace_id = $1 and lower(email) = $2 order by created_at, id limit 1`,
      [workspaceId, from.email],
    );
    return row;
  }
  const digits = from.phone.replace(/\D/g, '');
  const [row] = await tx.query<CustomerRow>(
    `select id, name, consent_messages from (
       select id, name, consent_messages, created_at, regexp_replace(regexp_replace(phone, '\\D', '', 'g'), '^00', '') as d
         from public.customers where workspace_id = $1 and phone is not null) c
      where c.d = $2 or (length(c.d) >= 8 and right($2, length(c.d)) = c.d)
      order by (c.d = $2) desc, c.created_at, c.id limit 1`,
    [workspaceId, digits],
  );
  return row;
}

/**
 * The conversation of this customer (or, for a sender who is nobody's customer, of this address), locked;
 * created with the workspace's agents and its owner and admins on the first message. A customer recorded
 * after writing from an address takes over that address's conversation. The channel and address of this
 * message become where a reply goes.
 */
async function openConversation(tx: Tx, message: InboundMessage, customer: CustomerRow | undefined): Promise<ContactRow> {
  const { workspaceId, from } = message;
  const byAddress = 'phone' in from ? 'phone' : 'email';
  const address = addressOf(from);
  let [row] = customer
    ? await tx.query<ContactRow>(
        `select conversation_id, customer_id, opted_out_at from public.customer_conversations where workspace_id = $1 and customer_id = $2 for update`,
        [workspaceId, customer.id],
      )
    : [];
  if (!row) {
    [row] = await tx.query<ContactRow>(
      `select conversation_id, customer_id, opted_out_at from public.customer_conversations
        where workspace_id = $1 and customer_id is null and ${byAddress} = $2 for update`,
      [workspaceId, address],
    );
  }
  const name = (customer?.name ?? address).slice(0, 80);
  if (!row) {
    const id = randomUUID();
    await tx.query(`insert into public.conversations (id, workspace_id, kind, name, visibility) values ($1, $2, 'customer', $3, 'private')`, [id, workspaceId, name]);
    await tx.query(
      `insert into public.customer_conversations (conversation_id, workspace_id, customer_id, ${byAddress}, channel, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $6)`,
      [id, workspaceId, customer?.id ?? null, address, message.channel, message.now.toISOString()],
    );
    row = { conversation_id: id, customer_id: customer?.id ?? null, opted_out_at: null };
  } else {
    await tx.query(
      `update public.customer_conversations set customer_id = coalesce(customer_id, $2), ${byAddress} = $3, channel = $4, updated_at = $5 where conversation_id = $1`,
      [row.conversation_id, customer?.id ?? null, address, message.channel, message.now.toISOString()],
    );
    if (customer && !row.customer_id) {
      await tx.query(`update public.conversations set name = $2 where id = $1`, [row.conversation_id, name]);
      row = { ...row, customer_id: customer.id };
    }
  }
  // Agents pinned to the workspace since, and new owners or admins, join before the message wakes anyone.
  await tx.query(
    `insert into public.conversation_members (workspace_id, conversation_id, agent_id)
     select $1, $2, wa.agent_id from public.workspace_agents wa join private.agents a on a.id = wa.agent_id
      where wa.workspace_id = $1 order by a.created_at
     on conflict do nothing`,
    [workspaceId, row.conversation_id],
  );
  await tx.query(
    `insert into public.conversation_members (workspace_id, conversation_id, user_id)
     select $1, $2, m.user_id from public.workspace_members m where m.workspace_id = $1 and m.role in ('owner', 'admin') order by m.created_at
     on conflict do nothing`,
    [workspaceId, row.conversation_id],
  );
  await publish(tx, { type: 'conversation', workspaceId, conversationId: row.conversation_id });
  return row;
}

/**
 * An opt-out, at once and for everything: the customer's consent to messages and offers is revoked, the
 * conversation records it, whatever is still queued to them is cancelled, and the one confirmation is
 * queued, due now. A second STOP finds them opted out already and queues nothing.
 */
async function optOut(
  tx: Tx,
  message: InboundMessage,
  contact: ContactRow,
  customer: CustomerRow | undefined,
  workspace: { name: string; time_zone: string; locale: Locale },
): Promise<string | null> {
  const now = message.now.toISOString();
  const alreadyOut = contact.opted_out_at !== null && (!customer || !customer.consent_messages);
  if (customer) {
    await tx.query(`update public.customers set consent_messages = false, consent_marketing = false where workspace_id = $1 and id = $2`, [
      message.workspaceId,
      customer.id,
    ]);
  }
  await tx.query(`update public.customer_conversations set opted_out_at = coalesce(opted_out_at, $2) where conversation_id = $1`, [contact.conversation_id, now]);
  const address = addressOf(message.from);
  await tx.query(
    `update public.outbox_messages set status = 'cancelled', cancelled_at = $3, error = 'The customer asked not to be written to (STOP).'
      where workspace_id = $1 and status = 'queued' and (customer_id = $2 or recipient = $4)
        and not exists (select 1 from public.customer_conversations x where x.stop_confirmation_id = outbox_messages.id)`,
    [message.workspaceId, customer?.id ?? null, now, address],
  );
  if (alreadyOut) return null;
  const { id } = await queueMessage(tx, {
    workspaceId: message.workspaceId,
    timeZone: workspace.time_zone,
    decisionId: null,
    customerId: customer?.id ?? null,
    channel: message.channel,
    recipient: address,
    recipientName: (customer?.name ?? '').slice(0, 120),
    subject: message.subject ? `Re: ${message.subject}`.slice(0, 200) : '',
    body: stopConfirmation(workspace.locale, workspace.name),
    now: message.now,
    immediate: true,
  });
  await tx.query(`update public.customer_conversations set stop_confirmation_id = $2 where conversation_id = $1`, [contact.conversation_id, id]);
  return id;
}

/** Why no agent is woken: nobody may write back, or the crm planet's autonomy lets nobody answer. */
async function whyUnanswered(tx: Tx, workspaceId: string, contact: ContactRow, customer: CustomerRow | undefined): Promise<Unanswered | null> {
  const refusal = replyRefusal({ customer_id: customer?.id ?? null, consent_messages: customer?.consent_messages ?? null, opted_out_at: contact.opted_out_at });
  if (refusal) return customer ? 'no_consent' : 'opted_out';
  const tier = await actionTier(tx, workspaceId, 'customer_reply');
  if (tier === 'off') return 'autonomy_off';
  if (tier === 'paused') return 'paused';
  return null;
}
