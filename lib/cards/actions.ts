import { z } from 'zod';
import { ApiError, conflict, isUuid, managersOnly, notFound, rethrowAsApiError } from '@/lib/api';
import { asService, elevated, withUser, type SessionUser, type Tx } from '@/lib/db';
import { writeMessageIn, type AuthorKind } from '@/lib/chat';
import { LOCALES, type Locale } from '@/lib/i18n';
import { publish } from '@/lib/realtime';
import { DECISION_VERBS, readAttachments, type ActionState, type ActionStatus, type Card, type CardAction, type CardEvent } from './card';
import type { Label } from './layout';
import { titleOf } from './keys';
import { APPROVAL_TTL_MS } from './stamp';

/**
 * Buttons on cards. A click is recorded (public.card_actions) and handed to the agent that published
 * the card as a message from the person who clicked, through the send path, with the click in
 * `payload.cardEvent`: the agent claims it like any delivery. The agent reports the outcome, and the
 * card shows it (`payload.actionState` of the card's message, announced over realtime).
 *
 * A button whose verb acts outside Multiverbe or cannot be undone (card.ts APPROVAL_VERBS) does not
 * reach the agent at once: an approval card goes into the conversation, and only an owner's or
 * admin's OK before it expires hands the click on. Approval cards an agent publishes itself work the
 * same way for who may decide and until when.
 */

export const clickSchema = z.object({
  cardId: z.string().min(1).max(40),
  actionId: z.string().min(1).max(40),
  /** The clicker's interface language: the words of the message that carries the click. */
  locale: z.enum(LOCALES).default('en'),
});
export type ClickInput = z.input<typeof clickSchema>;

export const outcomeSchema = z.object({
  status: z.enum(['done', 'failed']),
  /** One sentence the card shows, e.g. "Saved to Drafts" or "The hotel is fully booked". */
  outcome: z.string().trim().max(500).optional(),
});

export interface ClickResult {
  eventId: string;
  status: ActionStatus;
  /** The message that handed the click to the agent (when it was handed on). */
  eventMessageId?: string;
  /** The approval card's message (when the click waits for an OK). */
  approvalMessageId?: string;
  expiresAt?: Date;
}

interface MessageRow {
  id: string;
  workspace_id: string;
  conversation_id: string;
  author_kind: AuthorKind;
  author_agent_id: string | null;
  payload: Record<string, unknown>;
  deleted_at: Date | null;
}

interface ActionRow {
  id: string;
  workspace_id: string;
  conversation_id: string;
  message_id: string;
  card_id: string;
  action_id: string;
  verb: string;
  agent_id: string | null;
  status: ActionStatus;
  approval_message_id: string | null;
  expires_at: Date | null;
}

const text = (label: Label, locale: Locale) => (typeof label === 'string' ? label : label[locale]);

async function readMessage(tx: Tx, messageId: string): Promise<MessageRow> {
  const [row] = isUuid(messageId)
    ? await tx.query<MessageRow>(
        `select id, workspace_id, conversation_id, author_kind, author_agent_id, payload, deleted_at from public.messages where id = $1`,
        [messageId],
      )
    : [];
  if (!row) throw notFound('message');
  return row;
}

function findButton(message: MessageRow, cardId: string, actionId: string): { card: Card; action: CardAction } {
  const card = readAttachments(message.payload).cards.find((c) => c.id === cardId);
  const action = card?.actions.find((a) => a.id === actionId);
  if (!card || !action) throw notFound('button');
  return { card, action };
}

/** Records the latest state of a button on its message (replacing the one before) and announces the change. */
async function setState(tx: Tx, message: { id: string; workspace_id: string; conversation_id: string }, state: ActionState) {
  await tx.query(
    `update public.messages
        set payload = jsonb_set(payload, '{actionState}',
              coalesce((select jsonb_agg(e) from jsonb_array_elements(case when jsonb_typeof(payload -> 'actionState') = 'array' then payload -> 'actionState' else '[]'::jsonb end) e
                         where not (e ->> 'cardId' = $2 and e ->> 'actionId' = $3)), '[]'::jsonb) || jsonb_build_array($4::text::jsonb))
      where id = $1`,
    [message.id, state.cardId, state.actionId, JSON.stringify(state)],
  );
  await publish(tx, { type: 'message', workspaceId: message.workspace_id, conversationId: message.conversation_id, messageId: message.id });
}

async function agentName(tx: Tx, agentId: string, conversationId: string): Promise<string> {
  const [row] = await tx.query<{ name: string }>(
    `select a.name from private.agents a join public.conversation_members m on m.agent_id = a.id and m.conversation_id = $2 where a.id = $1`,
    [agentId, conversationId],
  );
  if (!row) throw conflict('api.cards.agentGone');
  return row.name;
}

/**
 * Hands a click to the card's agent: a message from the person, addressed to the agent (a mention,
 * so the agent and only it gets the delivery), carrying the click.
 */
async function handOn(
  tx: Tx,
  user: SessionUser,
  message: MessageRow,
  card: Card,
  action: CardAction,
  eventId: string,
  locale: Locale,
  approvedBy?: string,
): Promise<string> {
  const name = await agentName(tx, message.author_agent_id!, message.conversation_id);
  const title = titleOf(card);
  const event: CardEvent = {
    eventId,
    messageId: message.id,
    cardId: card.id,
    cardType: card.type,
    actionId: action.id,
    verb: action.verb,
    data: action.data ?? {},
    cardData: card.data,
    ...(approvedBy ? { approvedBy } : {}),
  };
  const body = `@${name} ▸ ${text(action.label, locale)}${title ? ` — ${text(title, locale)}` : ''}`;
  const sent = await writeMessageIn(tx, { kind: 'person', user }, message.conversation_id, body, {
    extractThreads: false,
    payload: { cardEvent: { ...event, label: action.label } },
  });
  await tx.query(`update public.card_actions set event_message_id = $2, updated_at = now() where id = $1`, [eventId, sent.id]);
  return sent.id;
}

/** The approval card for a gated click: what will happen, on which card (its deadline is the card's `expiresAt`, shown by every viewer). */
function approvalCardFor(card: Card, action: CardAction, eventId: string, expiresAt: Date, requester: string, agent: string): Card {
  const title = titleOf(card);
  const label = (l: Label): { en: string; it: string } => (typeof l === 'string' ? { en: l, it: l } : l);
  const verb = label(action.label);
  const about = title ? label(title) : undefined;
  return {
    v: 1,
    id: 'approval',
    type: 'approval',
    template: null,
    blocks: [
      { kind: 'callout', tone: 'warning', text: { en: 'Needs your OK', it: 'Serve il tuo OK' } },
      { kind: 'title', text: about ? { en: `${verb.en}: ${about.en}`, it: `${verb.it}: ${about.it}` } : verb },
      {
        kind: 'rows',
        rows: [
          { label: { en: 'Asked by', it: 'Chiesto da' }, value: { t: 'text', v: requester } },
          { label: { en: 'Carried out by', it: 'Eseguito da' }, value: { t: 'text', v: agent } },
        ],
      },
      // Exactly what the agent will act on: the card's own content.
      ...card.blocks.filter((b) => b.kind !== 'image' && b.kind !== 'title'),
    ],
    actions: [
      { id: 'approve', label: { en: 'Approve', it: 'Approva' }, verb: 'approve', style: 'primary', approval: false },
      { id: 'reject', label: { en: 'Ignore', it: 'Ignora' }, verb: 'reject', style: 'secondary', approval: false },
    ],
    data: { eventId, cardId: card.id, actionId: action.id },
    expiresAt: expiresAt.toISOString(),
    approvalFor: eventId,
  };
}

async function roleIn(tx: Tx, workspaceId: string, userId: string): Promise<string | undefined> {
  const [row] = await tx.query<{ role: string }>(`select role from public.workspace_members where workspace_id = $1 and user_id = $2`, [workspaceId, userId]);
  return row?.role;
}

async function displayName(tx: Tx, user: SessionUser): Promise<string> {
  const [row] = await tx.query<{ name: string }>(
    `select coalesce(nullif(display_name, ''), split_part(email, '@', 1)) as name from public.profiles where user_id = $1`,
    [user.id],
  );
  return row?.name ?? user.email;
}

/**
 * A person clicks a button. They must be able to read the message (RLS); decisions on approval cards
 * take an owner or admin. Returns what happened: handed to the agent, or waiting for an OK.
 */
export async function clickAction(user: SessionUser, messageId: string, input: ClickInput): Promise<ClickResult> {
  const { cardId, actionId, locale } = clickSchema.parse(input);
  const result = await withUser(user, async (tx): Promise<ClickResult | 'expired'> => {
    const message = await readMessage(tx, messageId);
    if (message.deleted_at) throw conflict('api.chat.messageDeleted');
    if (message.author_kind !== 'agent' || !message.author_agent_id) throw new ApiError('bad_request', 'api.cards.agentCardsOnly');
    const { card, action } = findButton(message, cardId, actionId);
    const isDecision = card.type === 'approval' && DECISION_VERBS.has(action.verb);
    if (isDecision && !['owner', 'admin'].includes((await roleIn(tx, message.workspace_id, user.id)) ?? '')) {
      throw managersOnly('decideApprovals');
    }
    return elevated(tx, async (tx) => {
      if (card.approvalFor) return decide(tx, user, message, card, action, locale);

      const [open] = await tx.query<{ status: ActionStatus }>(
        `select status from public.card_actions
          where message_id = $1 and card_id = $2 and (action_id = $3 or $4) and status in ('awaiting_approval', 'pending', 'done')
          order by created_at desc limit 1`,
        [message.id, card.id, action.id, isDecision],
      );
      if (open?.status === 'awaiting_approval') throw conflict('api.cards.awaitingOk');
      if (open?.status === 'pending') throw conflict('api.cards.agentHasClick');
      if (open && (isDecision || action.approval)) throw conflict(isDecision ? 'api.cards.alreadyDecided' : 'api.cards.alreadyDone');
      if (isDecision && card.expiresAt && new Date(card.expiresAt) <= new Date()) {
        throw new ApiError('gone', 'api.cards.requestExpired');
      }

      const gated = action.approval && !isDecision;
      const expiresAt = gated ? new Date(Date.now() + APPROVAL_TTL_MS) : null;
      const [row] = await tx.query<{ id: string; created_at: Date }>(
        `insert into public.card_actions (workspace_id, conversation_id, message_id, card_id, action_id, verb, agent_id, status, clicked_by, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id, created_at`,
        [message.workspace_id, message.conversation_id, message.id, card.id, action.id, action.verb, message.author_agent_id, gated ? 'awaiting_approval' : 'pending', user.id, expiresAt],
      );
      const eventId = row!.id;
      const at = new Date().toISOString();
      if (!gated) {
        const eventMessageId = await handOn(tx, user, message, card, action, eventId, locale);
        await setState(tx, message, { cardId: card.id, actionId: action.id, eventId, status: 'pending', at });
        return { eventId, status: 'pending' as const, eventMessageId };
      }

      // The approval card is posted by the card's agent: it is the agent's action that waits.
      const name = await agentName(tx, message.author_agent_id!, message.conversation_id);
      const approval = approvalCardFor(card, action, eventId, expiresAt!, await displayName(tx, user), name);
      const title = titleOf(card);
      const body = locale === 'it' ? `Serve un OK: ${text(action.label, locale)}` : `Needs an OK: ${text(action.label, locale)}`;
      const sent = await writeMessageIn(tx, { kind: 'agent', agentId: message.author_agent_id! }, message.conversation_id, title ? `${body} — ${text(title, locale)}` : body, {
        extractThreads: false,
        payload: { cards: [approval] },
      });
      await tx.query(`update public.card_actions set approval_message_id = $2 where id = $1`, [eventId, sent.id]);
      await setState(tx, message, { cardId: card.id, actionId: action.id, eventId, status: 'awaiting_approval', at });
      return { eventId, status: 'awaiting_approval' as const, approvalMessageId: sent.id, expiresAt: expiresAt! };
    });
  }).catch(rethrowAsApiError);
  // An approval found expired is recorded as such (that transaction committed), then refused.
  if (result === 'expired') throw new ApiError('gone', 'api.cards.approvalExpiredAskAgain');
  return result;
}

/** Approve or reject a gated click, from the approval card the server made for it. */
async function decide(tx: Tx, user: SessionUser, approvalMessage: MessageRow, card: Card, action: CardAction, locale: Locale): Promise<ClickResult | 'expired'> {
  const [row] = await tx.query<ActionRow>(
    `select id, workspace_id, conversation_id, message_id, card_id, action_id, verb, agent_id, status, approval_message_id, expires_at
       from public.card_actions where id = $1 and approval_message_id = $2 for update`,
    [card.approvalFor, approvalMessage.id],
  );
  if (!row) throw notFound('approval');
  if (row.status !== 'awaiting_approval') throw conflict(row.status === 'expired' ? 'api.cards.approvalExpired' : 'api.cards.alreadyDecided');
  if (row.expires_at && row.expires_at <= new Date()) {
    await markExpired(tx, row);
    return 'expired';
  }
  const original = await readMessage(tx, row.message_id);
  const at = new Date().toISOString();
  const name = await displayName(tx, user);
  if (action.verb === 'reject') {
    await tx.query(`update public.card_actions set status = 'rejected', decided_by = $2, decided_at = now(), updated_at = now() where id = $1`, [row.id, user.id]);
    await setState(tx, original, { cardId: row.card_id, actionId: row.action_id, eventId: row.id, status: 'rejected', at });
    await setState(tx, approvalMessage, { cardId: card.id, actionId: action.id, eventId: row.id, status: 'done', outcome: locale === 'it' ? `Ignorato da ${name}` : `Ignored by ${name}`, at });
    return { eventId: row.id, status: 'rejected' };
  }
  const target = findButton(original, row.card_id, row.action_id);
  await tx.query(`update public.card_actions set status = 'pending', decided_by = $2, decided_at = now(), updated_at = now() where id = $1`, [row.id, user.id]);
  const eventMessageId = await handOn(tx, user, original, target.card, target.action, row.id, locale, user.id);
  await setState(tx, original, { cardId: row.card_id, actionId: row.action_id, eventId: row.id, status: 'pending', at });
  await setState(tx, approvalMessage, { cardId: card.id, actionId: action.id, eventId: row.id, status: 'done', outcome: locale === 'it' ? `Approvato da ${name}` : `Approved by ${name}`, at });
  return { eventId: row.id, status: 'pending', eventMessageId };
}

async function markExpired(tx: Tx, row: ActionRow) {
  await tx.query(`update public.card_actions set status = 'expired', updated_at = now() where id = $1`, [row.id]);
  const at = new Date().toISOString();
  const original = await readMessage(tx, row.message_id);
  await setState(tx, original, { cardId: row.card_id, actionId: row.action_id, eventId: row.id, status: 'expired', at });
  if (row.approval_message_id) {
    const approval = await readMessage(tx, row.approval_message_id);
    for (const id of ['approve', 'reject']) await setState(tx, approval, { cardId: 'approval', actionId: id, eventId: row.id, status: 'expired', at });
  }
}

/**
 * Approvals nobody answered in time turn expired (both cards show it), so an old prompt is never
 * approved out of context. Background work: a cron calls it; returns how many expired.
 */
export async function expireApprovals(now = new Date()): Promise<number> {
  return asService(async (tx) => {
    const rows = await tx.query<ActionRow>(
      `select id, workspace_id, conversation_id, message_id, card_id, action_id, verb, agent_id, status, approval_message_id, expires_at
         from public.card_actions where status = 'awaiting_approval' and expires_at <= $1 for update skip locked`,
      [now],
    );
    for (const row of rows) await markExpired(tx, row);
    return rows.length;
  });
}

/**
 * The agent reports what came of a click it was handed; the card shows it. Only the agent the click
 * went to, and only once.
 */
export async function reportOutcome(agentId: string, eventId: string, input: z.input<typeof outcomeSchema>): Promise<{ eventId: string; status: ActionStatus }> {
  const { status, outcome } = outcomeSchema.parse(input);
  return asService(async (tx) => {
    const [row] = isUuid(eventId)
      ? await tx.query<ActionRow>(
          `select a.id, a.workspace_id, a.conversation_id, a.message_id, a.card_id, a.action_id, a.verb, a.agent_id, a.status, a.approval_message_id, a.expires_at
             from public.card_actions a
             join public.conversation_members m on m.conversation_id = a.conversation_id and m.agent_id = $2
            where a.id = $1 and a.agent_id = $2 for update of a`,
          [eventId, agentId],
        )
      : [];
    if (!row) throw notFound('cardAction');
    if (row.status !== 'pending') throw conflict(`api.cards.clickIs.${row.status}`);
    await tx.query(`update public.card_actions set status = $2, outcome = $3, completed_at = now(), updated_at = now() where id = $1`, [
      row.id,
      status,
      outcome || null,
    ]);
    const message = await readMessage(tx, row.message_id);
    await setState(tx, message, {
      cardId: row.card_id,
      actionId: row.action_id,
      eventId: row.id,
      status,
      ...(outcome ? { outcome } : {}),
      at: new Date().toISOString(),
    });
    return { eventId: row.id, status };
  }).catch(rethrowAsApiError);
}
