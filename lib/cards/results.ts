import { z } from 'zod';
import { rethrowAsApiError, validate } from '@/lib/api';
import { asService, withUser, type SessionUser } from '@/lib/db';
import { MAX_BODY, requireConversationAccess, writeMessageIn, type AuthorKind, type SentMessage } from '@/lib/chat';
import { readAttachments, type Card } from './card';
import type { Label } from './layout';
import { titleOf } from './keys';
import { resultInputSchema, stampCards } from './stamp';

const uuid = z.string().uuid();

export const publishResultsSchema = z.object({
  conversationId: uuid,
  /** The message text; a line naming the results when absent. */
  body: z.string().max(MAX_BODY).optional(),
  results: z.array(resultInputSchema).min(1).max(10),
  /** The delivery this answers: completed with the message, atomically (as with a plain reply). */
  replyTo: z.object({ deliveryId: uuid, connectionId: z.string().trim().min(1).max(100) }).optional(),
  done: z.boolean().default(false),
});
export type PublishResultsInput = z.input<typeof publishResultsSchema>;

const plain = (label: Label) => (typeof label === 'string' ? label : label.en);

/** The text of a card message for readers that do not draw cards (agents, notifications). */
function summaryOf(cards: Card[]): string {
  return cards
    .map((card) => {
      const title = titleOf(card);
      return title !== undefined ? plain(title) : card.type;
    })
    .join(' · ');
}

/**
 * An agent publishes structured results: each is validated and stamped, and the cards go out in one
 * message through the send path (deliveries, loop guard and realtime as for any message).
 */
export async function publishResults(agentId: string, input: PublishResultsInput): Promise<{ message: SentMessage; cards: Card[] }> {
  const { conversationId, body, results, replyTo, done } = validate(publishResultsSchema, input);
  return asService(async (tx) => {
    await requireConversationAccess(tx, { kind: 'agent', agentId }, conversationId);
    const cards = await stampCards(tx, results);
    const message = await writeMessageIn(tx, { kind: 'agent', agentId }, conversationId, body?.trim() || summaryOf(cards), {
      payload: { cards },
      replyTo,
      done,
    });
    return { message, cards };
  }).catch(rethrowAsApiError);
}

export interface CardMessage {
  id: string;
  conversationId: string;
  author: { kind: AuthorKind; id: string | null; name: string };
  body: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/**
 * The messages of a conversation that carry cards or artifacts, newest first, read as the caller
 * under RLS: the conversation's "results and files".
 */
export async function listCardMessages(user: SessionUser, conversationId: string, limit = 50): Promise<CardMessage[]> {
  return withUser(user, async (tx) => {
    await requireConversationAccess(tx, { kind: 'person', user }, conversationId);
    const rows = await tx.query<{
      id: string;
      conversation_id: string;
      author_kind: AuthorKind;
      author_id: string | null;
      author_name: string;
      body: string;
      payload: Record<string, unknown>;
      created_at: Date;
    }>(
      `select id, conversation_id, author_kind, coalesce(author_user_id, author_agent_id) as author_id, author_name, body, payload, created_at
         from public.messages
        where conversation_id = $1 and deleted_at is null and (payload ? 'cards' or payload ? 'artifacts')
        order by seq desc limit $2`,
      [conversationId, limit],
    );
    return rows
      .map((r) => ({
        id: r.id,
        conversationId: r.conversation_id,
        author: { kind: r.author_kind, id: r.author_id, name: r.author_name },
        body: r.body,
        payload: r.payload,
        createdAt: r.created_at,
      }))
      .filter((m) => {
        const { cards, artifacts } = readAttachments(m.payload);
        return cards.length > 0 || artifacts.length > 0;
      });
  }).catch(rethrowAsApiError);
}
