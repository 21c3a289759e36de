import { ApiError, conflict, forbidden, isUuid, notFound, rethrowAsApiError } from '@/lib/api';
import { elevated, withUser, type SessionUser, type Tx } from '@/lib/db';
import { publish } from '@/lib/realtime';
import { dropQueued } from './deliveries';
import type { ConversationStatus, MessageAuthorKind } from './kinds';
import { findMentions, type Mentionable } from './parse';
import { loadMembers, mentionablesOf, requireVisibleConversation, type MessagePayload } from './pipeline';

export interface Message {
  id: string;
  seq: number;
  conversationId: string;
  author: { kind: MessageAuthorKind; id: string | null; name: string };
  /** Markdown; empty once deleted. */
  body: string;
  mentions: Mentionable[];
  payload: MessagePayload;
  /** The side threads this message opened or continued, with their current status (the cards). */
  sideThreads: { id: string; status: ConversationStatus }[];
  reactions: { emoji: string; count: number; mine: boolean }[];
  createdAt: Date;
  editedAt: Date | null;
  deletedAt: Date | null;
}

interface MessageRow {
  id: string;
  seq: number;
  conversation_id: string;
  author_kind: MessageAuthorKind;
  author_id: string | null;
  author_name: string;
  body: string;
  mentions: Mentionable[];
  payload: Message['payload'];
  reactions: Message['reactions'];
  created_at: Date;
  edited_at: Date | null;
  deleted_at: Date | null;
}

/**
 * A page of history, oldest first, read as the caller under RLS. `nextCursor` fetches the page
 * before this one; null at the beginning of the conversation.
 */
export async function listMessages(
  user: SessionUser,
  conversationId: string,
  query: { before?: number; limit?: number } = {},
): Promise<{ messages: Message[]; nextCursor: number | null }> {
  const limit = query.limit ?? 50;
  return withUser(user, async (tx) => {
    await requireVisibleConversation(tx, conversationId);
    const rows = await tx.query<MessageRow>(
      `select m.id, m.seq, m.conversation_id, m.author_kind, coalesce(m.author_user_id, m.author_agent_id) as author_id, m.author_name,
              m.body, m.mentions, m.payload, m.created_at, m.edited_at, m.deleted_at,
              coalesce((select json_agg(json_build_object('emoji', r.emoji, 'count', r.n, 'mine', r.mine) order by r.first_at)
                          from (select emoji, count(*)::int as n, bool_or(user_id = $4) as mine, min(created_at) as first_at
                                  from public.message_reactions where message_id = m.id group by emoji) r), '[]') as reactions
         from public.messages m
        where m.conversation_id = $1 and ($2::bigint is null or m.seq < $2)
        order by m.seq desc
        limit $3`,
      [conversationId, query.before ?? null, limit + 1, user.id],
    );
    const page = rows.slice(0, limit).reverse();
    const threadIds = page.flatMap((r) => r.payload.sideThreads ?? []);
    const threads = threadIds.length
      ? await tx.query<{ id: string; status: ConversationStatus }>(
          `select id, status from public.conversations where id = any($1::uuid[])`,
          [threadIds],
        )
      : [];
    const statusOf = new Map(threads.map((t) => [t.id, t.status]));
    return {
      messages: page.map((r) => ({
        id: r.id,
        seq: r.seq,
        conversationId: r.conversation_id,
        author: { kind: r.author_kind, id: r.author_id, name: r.author_name },
        body: r.body,
        mentions: r.mentions,
        payload: r.payload,
        sideThreads: (r.payload.sideThreads ?? []).flatMap((id) => (statusOf.has(id) ? [{ id, status: statusOf.get(id)! }] : [])),
        reactions: r.reactions,
        createdAt: r.created_at,
        editedAt: r.edited_at,
        deletedAt: r.deleted_at,
      })),
      nextCursor: rows.length > limit ? page[0]!.seq : null,
    };
  }).catch(rethrowAsApiError);
}

async function requireOwnMessage(tx: Tx, user: SessionUser, conversationId: string, messageId: string) {
  const [row] = isUuid(messageId) && isUuid(conversationId)
    ? await tx.query<{ id: string; workspace_id: string; conversation_id: string; author_user_id: string | null; deleted_at: Date | null }>(
        `select id, workspace_id, conversation_id, author_user_id, deleted_at from public.messages where id = $1 and conversation_id = $2`,
        [messageId, conversationId],
      )
    : [];
  if (!row) throw notFound('message');
  if (row.author_user_id !== user.id) throw forbidden('api.chat.onlyAuthorEdits');
  if (row.deleted_at) throw conflict('api.chat.messageDeleted');
  return row;
}

/**
 * Edits the caller's own message. An edit changes what is shown (mentions are re-read) but is not a
 * new message: nobody is woken and no side thread opens.
 */
export async function editMessage(user: SessionUser, conversationId: string, messageId: string, body: string): Promise<{ id: string; editedAt: Date }> {
  if (!body.trim()) throw new ApiError('validation_failed', 'api.chat.messageEmpty');
  return withUser(user, async (tx) => {
    const message = await requireOwnMessage(tx, user, conversationId, messageId);
    // Member names include agents' (private rows): read them with the server's rights.
    const members = await elevated(tx, (tx) => loadMembers(tx, message.conversation_id));
    const mentions = findMentions(body, mentionablesOf(members));
    const [row] = await tx.query<{ edited_at: Date }>(
      `update public.messages set body = $2, mentions = $3::text::jsonb, edited_at = now() where id = $1 returning edited_at`,
      [messageId, body.trim(), JSON.stringify(mentions)],
    );
    await publish(tx, { type: 'message', workspaceId: message.workspace_id, conversationId: message.conversation_id, messageId });
    return { id: messageId, editedAt: row!.edited_at };
  }).catch(rethrowAsApiError);
}

/** Deletes the caller's own message (its text goes; its place in history stays). Agents no longer answer it. */
export async function deleteMessage(user: SessionUser, conversationId: string, messageId: string): Promise<{ id: string; deletedAt: Date }> {
  return withUser(user, async (tx) => {
    const message = await requireOwnMessage(tx, user, conversationId, messageId);
    const [row] = await tx.query<{ deleted_at: Date }>(
      `update public.messages set body = '', mentions = '[]', deleted_at = now() where id = $1 returning deleted_at`,
      [messageId],
    );
    await elevated(tx, (tx) => dropQueued(tx, { messageId }));
    await publish(tx, { type: 'message', workspaceId: message.workspace_id, conversationId: message.conversation_id, messageId });
    return { id: messageId, deletedAt: row!.deleted_at };
  }).catch(rethrowAsApiError);
}

async function requireVisibleMessage(tx: Tx, conversationId: string, messageId: string) {
  const [row] = isUuid(messageId) && isUuid(conversationId)
    ? await tx.query<{ workspace_id: string; conversation_id: string; deleted_at: Date | null }>(
        `select workspace_id, conversation_id, deleted_at from public.messages where id = $1 and conversation_id = $2`,
        [messageId, conversationId],
      )
    : [];
  if (!row) throw notFound('message');
  return row;
}

/** Adds the caller's reaction (adding it twice is adding it once). */
export async function addReaction(user: SessionUser, conversationId: string, messageId: string, emoji: string): Promise<void> {
  await withUser(user, async (tx) => {
    const message = await requireVisibleMessage(tx, conversationId, messageId);
    if (message.deleted_at) throw conflict('api.chat.messageDeleted');
    await tx.query(
      `insert into public.message_reactions (workspace_id, conversation_id, message_id, user_id, emoji)
       values ($1, $2, $3, $4, $5) on conflict do nothing`,
      [message.workspace_id, message.conversation_id, messageId, user.id, emoji],
    );
    await publish(tx, { type: 'message', workspaceId: message.workspace_id, conversationId: message.conversation_id, messageId });
  }).catch(rethrowAsApiError);
}

export async function removeReaction(user: SessionUser, conversationId: string, messageId: string, emoji: string): Promise<void> {
  await withUser(user, async (tx) => {
    const message = await requireVisibleMessage(tx, conversationId, messageId);
    await tx.query(`delete from public.message_reactions where message_id = $1 and user_id = $2 and emoji = $3`, [messageId, user.id, emoji]);
    await publish(tx, { type: 'message', workspaceId: message.workspace_id, conversationId: message.conversation_id, messageId });
  }).catch(rethrowAsApiError);
}
