import { randomUUID } from 'node:crypto';
import { ApiError, conflict, isUuid, notFound, rethrowAsApiError } from '@/lib/api';
import { asService, elevated, withUser, type SessionUser, type Tx } from '@/lib/db';
import { publish } from '@/lib/realtime';
import { completeIn, dropQueued, enqueueDeliveries } from './deliveries';
import type { AuthorKind, ConversationKind, ConversationStatus, MessageAuthorKind } from './kinds';
import { extractSideThreads, findMentions, type Mentionable, type SideThreadBlock } from './parse';
import { decideTurns, type Turn } from './turns';

/** Who writes: a signed-in person (their rights come from RLS) or an authenticated agent. */
export type Actor = { kind: 'person'; user: SessionUser } | { kind: 'agent'; agentId: string };

/** Loop guard: consecutive agent messages without a person before agents pause. */
export const LOOP_LIMITS = { oneToOne: 4, group: 6 } as const;

export const MAX_BODY = 20_000;

export interface SendOptions {
  /** An agent's reply completes the delivery it answers in the same transaction. */
  replyTo?: { deliveryId: string; connectionId: string };
  /** The agent is done here: agents' messages stop waking it until a person writes. */
  done?: boolean;
  /** Structured extras stored with the message (how it was sent, cards…). */
  payload?: MessagePayload;
}

/** Structured extras of a message: the send path's own keys, and cards, artifacts… (lib/cards). */
export type MessagePayload = { sideThreads?: string[]; resolvesThread?: string; [key: string]: unknown };

export interface SentMessage {
  id: string;
  seq: number;
  conversationId: string;
  workspaceId: string;
  author: { kind: AuthorKind; id: string; name: string };
  body: string;
  mentions: Mentionable[];
  payload: MessagePayload;
  createdAt: Date;
  /** Who was asked to react, in turn order (empty when agents are paused). */
  turns: Turn[];
  /** The conversation's agents are paused after this message (loop guard). */
  agentsPaused: boolean;
}

export interface ConversationRow {
  id: string;
  workspace_id: string;
  kind: ConversationKind;
  status: ConversationStatus | null;
  parent_conversation_id: string | null;
  agent_streak: number;
  agents_paused: boolean;
}

interface MemberRow {
  user_id: string | null;
  agent_id: string | null;
  name: string;
  role: string | null;
  capabilities: string[] | null;
  done_at: Date | null;
}

/**
 * Locks the conversation for the rest of the transaction: sends to one conversation are serialised.
 * With the service's rights: a lock is an update's, and people update conversations only to resolve.
 */
export async function lockConversation(tx: Tx, id: string): Promise<ConversationRow> {
  const [row] = await tx.query<ConversationRow>(
    `select id, workspace_id, kind, status, parent_conversation_id, agent_streak, agents_paused
       from public.conversations where id = $1 for update`,
    [id],
  );
  if (!row) throw notFound('conversation');
  return row;
}

export async function loadMembers(tx: Tx, conversationId: string): Promise<MemberRow[]> {
  return tx.query<MemberRow>(
    `select m.user_id, m.agent_id, a.role, a.capabilities, m.done_at,
            coalesce(a.name, nullif(p.display_name, ''), split_part(p.email, '@', 1), 'Someone') as name
       from public.conversation_members m
       left join private.agents a on a.id = m.agent_id
       left join public.profiles p on p.user_id = m.user_id
      where m.conversation_id = $1
      order by m.seq`,
    [conversationId],
  );
}

export const mentionablesOf = (members: MemberRow[]): Mentionable[] =>
  members.map((m) => (m.agent_id ? { type: 'agent', id: m.agent_id, name: m.name } : { type: 'person', id: m.user_id!, name: m.name }));

function checkBody(body: string) {
  if (body.length > MAX_BODY) throw new ApiError('validation_failed', 'api.chat.messageTooLong', { max: MAX_BODY });
}

/**
 * The one send path, for people and agents alike. A person writes as themselves and RLS decides
 * (messages_insert: they may read the conversation); an agent must be a member of it. Everything —
 * message, side threads, loop-guard state, deliveries and the realtime announcement — commits together
 * or not at all.
 */
export async function sendMessage(actor: Actor, conversationId: string, body: string, options: SendOptions = {}): Promise<SentMessage> {
  checkBody(body);
  if (actor.kind === 'person') {
    if (options.replyTo || options.done) throw new ApiError('bad_request', 'api.chat.agentsOnlyReply');
    return withUser(actor.user, async (tx) => {
      await requireVisibleConversation(tx, conversationId);
      return writeMessageIn(tx, actor, conversationId, body, options);
    }).catch(rethrowAsApiError);
  }
  return asService(async (tx) => {
    await requireAgentMembership(tx, actor.agentId, conversationId);
    return writeMessageIn(tx, actor, conversationId, body, options);
  }).catch(rethrowAsApiError);
}

/**
 * What other capabilities use to add a message to their own transaction (cards, artifacts), and to check
 * an actor may read a conversation first (they, and the bridge): the access check, then the locked
 * conversation's send path. Nothing else of the pipeline is theirs.
 */
export async function requireConversationAccess(tx: Tx, actor: Actor, conversationId: string): Promise<void> {
  if (actor.kind === 'person') await requireVisibleConversation(tx, conversationId);
  else await requireAgentMembership(tx, actor.agentId, conversationId);
}

/** Writes a message into `conversationId` in the caller's transaction: locks the conversation (with the service's rights), then `writeMessage`. */
export async function writeMessageIn(tx: Tx, actor: Actor, conversationId: string, body: string, options: WriteOptions = {}): Promise<SentMessage> {
  const conversation = await serviceFor(tx, actor)((tx) => lockConversation(tx, conversationId));
  return writeMessage(tx, actor, conversation, body, options);
}

export async function requireVisibleConversation(tx: Tx, conversationId: string): Promise<{ id: string; kind: string; parent_conversation_id: string | null }> {
  const [row] = isUuid(conversationId)
    ? await tx.query<{ id: string; kind: string; parent_conversation_id: string | null }>(
        `select id, kind, parent_conversation_id from public.conversations where id = $1`,
        [conversationId],
      )
    : [];
  if (!row) throw notFound('conversation');
  return row;
}

export async function requireAgentMembership(tx: Tx, agentId: string, conversationId: string): Promise<void> {
  const [row] = isUuid(conversationId)
    ? await tx.query(`select 1 from public.conversation_members where conversation_id = $1 and agent_id = $2`, [conversationId, agentId])
    : [];
  if (!row) throw notFound('conversation');
}

async function authorName(tx: Tx, actor: Actor): Promise<{ id: string; name: string }> {
  if (actor.kind === 'person') {
    const [row] = await tx.query<{ name: string }>(
      `select coalesce(nullif(display_name, ''), split_part(email, '@', 1)) as name from public.profiles where user_id = $1`,
      [actor.user.id],
    );
    return { id: actor.user.id, name: row?.name ?? actor.user.email };
  }
  const [row] = await tx.query<{ name: string }>(`select name from private.agents where id = $1`, [actor.agentId]);
  if (!row) throw notFound('agent');
  return { id: actor.agentId, name: row.name };
}

/** Resolves `<dm target>` names to agents shown in the workspace, members of the conversation first. */
async function resolveTargets(tx: Tx, conversation: ConversationRow, members: MemberRow[], names: string[], author: Actor): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    const inConversation = members.filter((m) => m.agent_id && m.name.toLowerCase() === name.toLowerCase());
    let candidates = inConversation.map((m) => m.agent_id!);
    if (candidates.length === 0) {
      const rows = await tx.query<{ id: string }>(
        `select a.id from public.workspace_agents wa join private.agents a on a.id = wa.agent_id
          where wa.workspace_id = $1 and lower(a.name) = lower($2)`,
        [conversation.workspace_id, name],
      );
      candidates = rows.map((r) => r.id);
    }
    if (candidates.length === 0) throw new ApiError('validation_failed', 'api.chat.noAgentForDm', { name });
    if (candidates.length > 1) throw new ApiError('validation_failed', 'api.chat.ambiguousAgentForDm', { name });
    const id = candidates[0]!;
    if (!(author.kind === 'agent' && author.agentId === id) && !ids.includes(id)) ids.push(id);
  }
  if (ids.length === 0) throw new ApiError('validation_failed', 'api.chat.dmNeedsTarget');
  return ids;
}

/** An open side thread of `parentId` whose members are exactly `memberIds`; locked when found. */
async function findOpenThread(tx: Tx, parentId: string, memberIds: string[]): Promise<ConversationRow | undefined> {
  const [row] = await tx.query<ConversationRow>(
    `select c.id, c.workspace_id, c.kind, c.status, c.parent_conversation_id, c.agent_streak, c.agents_paused
       from public.conversations c
      where c.parent_conversation_id = $1 and c.kind = 'thread' and c.status = 'open'
        and (select array_agg(coalesce(m.agent_id, m.user_id) order by coalesce(m.agent_id, m.user_id))
               from public.conversation_members m where m.conversation_id = c.id)
          = (select array_agg(x order by x) from unnest($2::uuid[]) as x)
      order by c.created_at
      limit 1
      for update of c`,
    [parentId, memberIds],
  );
  return row;
}

interface WriteOptions extends SendOptions {
  /** Side-thread blocks are read in messages written through the API; not inside a thread's first message. */
  extractThreads?: boolean;
}

/** Runs `fn` with the service's rights, in the same transaction. */
export type WithService = <R>(fn: (tx: Tx) => Promise<R>) => Promise<R>;

/**
 * The service's rights in the actor's transaction: a person's runs as the person, so it is `elevated`
 * for the statement at hand; an agent's has them throughout.
 */
export const serviceFor =
  (tx: Tx, actor: Actor): WithService =>
  (fn) =>
    actor.kind === 'person' ? elevated(tx, fn) : fn(tx);

/**
 * Writes one message into a locked conversation, in the actor's transaction. Callers have authorised
 * the actor; this decides everything else. A person's own rows — the message, joining a public channel,
 * the side threads they open — are written as the person, under RLS; what follows from the message is
 * the server's and written with its rights: agents' rows read for names and turns, the loop guard and
 * last-message state, the payload, the deliveries.
 */
export async function writeMessage(tx: Tx, actor: Actor, conversation: ConversationRow, rawBody: string, options: WriteOptions = {}): Promise<SentMessage> {
  requireOpenThread(conversation);
  const { body, blocks } = parseBody(rawBody, options.extractThreads !== false);
  const service = serviceFor(tx, actor);
  const author = await authorName(tx, actor);
  await joinPublicChannel(tx, actor, conversation);
  const { members, threads } = await service(async (tx) => {
    const members = await loadMembers(tx, conversation.id);
    return { members, threads: await planSideThreads(tx, actor, author.id, conversation, members, blocks) };
  });

  const mentions = findMentions(body, mentionablesOf(members));
  const payload = { ...options.payload, ...(threads.length ? { sideThreads: threads.map((t) => t.id) } : {}) };
  const message = await insertMessage(tx, actor, conversation, { name: author.name, body, mentions, payload });
  const sent = { id: message.id, workspaceId: conversation.workspace_id, conversationId: conversation.id };
  const { paused, turns } = await service(async (tx) => {
    if (actor.kind === 'person' && Object.keys(payload).length > 0) {
      await tx.query(`update public.messages set payload = $2::text::jsonb where id = $1`, [message.id, JSON.stringify(payload)]);
    }
    const paused = await advanceConversation(tx, actor.kind, conversation, members.length, message);
    const turns = paused ? [] : turnsFor(actor.kind, actor.kind === 'agent' ? actor.agentId : null, conversation, members, body, mentions);
    await enqueueDeliveries(tx, sent, turns);
    if (actor.kind === 'agent') await recordAgentReply(tx, actor.agentId, conversation.id, options);
    return { paused, turns };
  });
  await publish(tx, { type: 'message', workspaceId: sent.workspaceId, conversationId: sent.conversationId, messageId: sent.id });
  await openSideThreads(tx, actor, conversation, sent.id, threads);

  return {
    id: sent.id,
    seq: message.seq,
    conversationId: conversation.id,
    workspaceId: conversation.workspace_id,
    author: { kind: actor.kind, ...author },
    body,
    mentions,
    payload,
    createdAt: message.created_at,
    turns,
    agentsPaused: paused,
  };
}

/**
 * A customer's message (an SMS, WhatsApp or email that came back: lib/inbound) in a customer conversation,
 * in the caller's transaction with the service's rights: the same loop guard, turns, deliveries and
 * announcement as a person's message, since a person wrote it. `wake: false` lands it without waking an
 * agent (nobody may answer: autonomy is off, or the customer said STOP).
 */
export async function writeCustomerMessage(
  tx: Tx,
  conversationId: string,
  message: { name: string; body: string; payload?: MessagePayload; wake: boolean },
): Promise<{ id: string; seq: number; turns: Turn[] }> {
  const conversation = await lockConversation(tx, conversationId);
  if (conversation.kind !== 'customer') throw new Error(`conversation ${conversationId} is not a customer conversation`);
  checkBody(message.body);
  const members = await loadMembers(tx, conversation.id);
  const [row] = await tx.query<{ id: string; seq: number; created_at: Date }>(
    `insert into public.messages (workspace_id, conversation_id, author_kind, author_name, body, payload)
     values ($1, $2, 'customer', $3, $4, $5::text::jsonb) returning id, seq, created_at`,
    [conversation.workspace_id, conversation.id, message.name, message.body, JSON.stringify(message.payload ?? {})],
  );
  await advanceConversation(tx, 'customer', conversation, members.length, row!);
  const turns = message.wake ? turnsFor('customer', null, conversation, members, message.body, []) : [];
  await enqueueDeliveries(tx, { id: row!.id, workspaceId: conversation.workspace_id, conversationId: conversation.id }, turns);
  await publish(tx, { type: 'message', workspaceId: conversation.workspace_id, conversationId: conversation.id, messageId: row!.id });
  return { id: row!.id, seq: row!.seq, turns };
}

function requireOpenThread(conversation: ConversationRow) {
  if (conversation.kind === 'thread' && conversation.status !== 'open') {
    throw conflict(conversation.status === 'resolved' ? 'api.chat.threadClosed.resolved' : 'api.chat.threadClosed.abandoned');
  }
}

/** The message's text and, unless `extractThreads` is off, the side-thread blocks taken out of it. */
function parseBody(rawBody: string, extractThreads: boolean): { body: string; blocks: SideThreadBlock[] } {
  const { text: body, blocks } = extractThreads ? extractSideThreads(rawBody) : { text: rawBody.trim(), blocks: [] };
  if (!body && blocks.length === 0) throw new ApiError('validation_failed', 'api.chat.messageEmpty');
  if (blocks.some((b) => !b.body)) throw new ApiError('validation_failed', 'api.chat.dmBlockEmpty');
  return { body, blocks };
}

/** The actor as the columns that record an author or creator hold it: one id set, the other null. */
const actorIds = (actor: Actor) => ({
  userId: actor.kind === 'person' ? actor.user.id : null,
  agentId: actor.kind === 'agent' ? actor.agentId : null,
});

/** The creator column a new conversation names the actor in, and its value (people may write only theirs). */
export const creatorOf = (actor: Actor): [column: 'created_by_user_id' | 'created_by_agent_id', id: string] =>
  actor.kind === 'person' ? ['created_by_user_id', actor.user.id] : ['created_by_agent_id', actor.agentId];

/** A person writing in a public channel joins it (as the person: conversation_members_insert). */
async function joinPublicChannel(tx: Tx, actor: Actor, conversation: ConversationRow) {
  if (actor.kind !== 'person' || conversation.kind !== 'channel') return;
  await tx.query(
    `insert into public.conversation_members (workspace_id, conversation_id, user_id) values ($1, $2, $3)
     on conflict (conversation_id, user_id) do nothing`,
    [conversation.workspace_id, conversation.id, actor.user.id],
  );
}

interface PlannedThread {
  id: string;
  /** An open thread with the same members already there, rather than a new one. */
  existing: boolean;
  agentIds: string[];
  bodies: string[];
}

/**
 * Every target of every `<dm>` block resolved before anything is written, so a bad one writes
 * nothing. Blocks to the same agents share one thread (an open one already there, or one new one).
 */
async function planSideThreads(
  tx: Tx,
  actor: Actor,
  authorId: string,
  conversation: ConversationRow,
  members: MemberRow[],
  blocks: SideThreadBlock[],
): Promise<PlannedThread[]> {
  const threads = new Map<string, PlannedThread>();
  for (const block of blocks) {
    const agentIds = await resolveTargets(tx, conversation, members, block.targets, actor);
    const memberIds = [authorId, ...agentIds];
    const key = [...memberIds].sort().join(',');
    let thread = threads.get(key);
    if (!thread) {
      const open = await findOpenThread(tx, conversation.id, memberIds);
      thread = { id: open?.id ?? randomUUID(), existing: Boolean(open), agentIds, bodies: [] };
      threads.set(key, thread);
    }
    thread.bodies.push(block.body);
  }
  return [...threads.values()];
}

/**
 * A person's message is inserted as the person (RLS: messages_insert) without its payload, which people
 * never write: writeMessage stamps it with the server's rights. An agent's is inserted whole.
 */
async function insertMessage(
  tx: Tx,
  actor: Actor,
  conversation: ConversationRow,
  message: { name: string; body: string; mentions: Mentionable[]; payload: MessagePayload },
): Promise<{ id: string; seq: number; created_at: Date }> {
  const [row] =
    actor.kind === 'person'
      ? await tx.query<{ id: string; seq: number; created_at: Date }>(
          `insert into public.messages (workspace_id, conversation_id, author_kind, author_user_id, author_name, body, mentions)
           values ($1, $2, 'person', $3, $4, $5, $6::text::jsonb) returning id, seq, created_at`,
          [conversation.workspace_id, conversation.id, actor.user.id, message.name, message.body, JSON.stringify(message.mentions)],
        )
      : await tx.query<{ id: string; seq: number; created_at: Date }>(
          `insert into public.messages (workspace_id, conversation_id, author_kind, author_agent_id, author_name, body, mentions, payload)
           values ($1, $2, 'agent', $3, $4, $5, $6::text::jsonb, $7::text::jsonb) returning id, seq, created_at`,
          [
            conversation.workspace_id,
            conversation.id,
            actor.agentId,
            message.name,
            message.body,
            JSON.stringify(message.mentions),
            JSON.stringify(message.payload),
          ],
        );
  return row!;
}

/**
 * Moves the conversation on to `message`, loop guard included: a person resets the guard and wakes
 * agents that said they were done; an agent adds to the streak, and at the limit the conversation's
 * agents pause until a person writes. Returns whether they are paused.
 */
async function advanceConversation(
  tx: Tx,
  authorKind: MessageAuthorKind,
  conversation: ConversationRow,
  memberCount: number,
  message: { seq: number; created_at: Date },
): Promise<boolean> {
  const limit = memberCount <= 2 ? LOOP_LIMITS.oneToOne : LOOP_LIMITS.group;
  // A customer's message counts as a person's: a human wrote it.
  const byAgent = authorKind === 'agent';
  const streak = byAgent ? conversation.agent_streak + 1 : 0;
  const paused = byAgent ? conversation.agents_paused || streak >= limit : false;
  await tx.query(
    `update public.conversations set agent_streak = $2, agents_paused = $3, last_message_seq = $4, last_message_at = $5, updated_at = now()
      where id = $1`,
    [conversation.id, streak, paused, message.seq, message.created_at],
  );
  if (!byAgent) {
    await tx.query(`update public.conversation_members set done_at = null where conversation_id = $1 and done_at is not null`, [conversation.id]);
  }
  return paused;
}

/**
 * Who is asked to react, in turn order. In a side thread every message is addressed to the other
 * agents in it (that is what the thread is for); elsewhere, the agents it mentions are addressed.
 */
function turnsFor(
  authorKind: MessageAuthorKind,
  authorAgentId: string | null,
  conversation: ConversationRow,
  members: MemberRow[],
  body: string,
  mentions: Mentionable[],
): Turn[] {
  const candidates = members.filter((m) => m.agent_id && !(authorAgentId && (m.agent_id === authorAgentId || m.done_at)));
  const addressed =
    conversation.kind === 'thread'
      ? candidates.map((m) => m.agent_id!)
      : mentions.filter((m) => m.type === 'agent').map((m) => m.id);
  return decideTurns({
    text: body,
    authorKind: authorKind === 'agent' ? 'agent' : 'person',
    addressed,
    candidates: candidates.map((m) => ({ agentId: m.agent_id!, role: m.role ?? '', capabilities: m.capabilities ?? [] })),
  });
}

/**
 * An agent's message completes the delivery it answers, and says whether the agent is done here:
 * done silences it towards other agents; writing again without it re-engages.
 */
async function recordAgentReply(tx: Tx, agentId: string, conversationId: string, { replyTo, done }: SendOptions) {
  if (replyTo) await completeIn(tx, agentId, replyTo.connectionId, replyTo.deliveryId, { outcome: 'replied' });
  await tx.query(`update public.conversation_members set done_at = case when $3 then now() end where conversation_id = $1 and agent_id = $2`, [
    conversationId,
    agentId,
    Boolean(done),
  ]);
}

/**
 * The planned side threads: new ones are created, linked to `messageId` (a person's as the person:
 * conversations_insert, conversation_members_insert); each block is posted in its thread by the same
 * author through this same path.
 */
async function openSideThreads(tx: Tx, actor: Actor, conversation: ConversationRow, messageId: string, threads: PlannedThread[]) {
  const author = actorIds(actor);
  const [creator, creatorId] = creatorOf(actor);
  const service = serviceFor(tx, actor);
  for (const thread of threads) {
    if (!thread.existing) {
      await tx.query(
        `insert into public.conversations (id, workspace_id, kind, visibility, status, status_changed_at, parent_conversation_id, parent_message_id, ${creator})
         values ($1, $2, 'thread', 'private', 'open', now(), $3, $4, $5)`,
        [thread.id, conversation.workspace_id, conversation.id, messageId, creatorId],
      );
      // The author first, then the targets: join order is the thread's fallback order.
      const userIds = [author.userId, ...thread.agentIds.map(() => null)];
      const agentIds = [author.agentId, ...thread.agentIds];
      await tx.query(
        `insert into public.conversation_members (workspace_id, conversation_id, user_id, agent_id)
         select $1, $2, u, a from unnest($3::uuid[], $4::uuid[]) with ordinality as t (u, a, n) order by n`,
        [conversation.workspace_id, thread.id, userIds, agentIds],
      );
      await publish(tx, { type: 'conversation', workspaceId: conversation.workspace_id, conversationId: thread.id });
    }
    for (const threadBody of thread.bodies) {
      await writeMessage(tx, actor, await service((tx) => lockConversation(tx, thread.id)), threadBody, { extractThreads: false });
    }
  }
}

/**
 * Resolves a side thread: the summary is posted back to the conversation it came from (through the
 * same send path, by whoever resolves) and the thread turns resolved, which its card shows. Any
 * participant may: a person who can read the thread (as the person: conversations_update), or an agent
 * in it.
 */
export async function resolveThread(actor: Actor, threadId: string, summary: string): Promise<{ threadId: string; message: SentMessage }> {
  checkBody(summary);
  const resolve = async (tx: Tx, parentId: string) => {
    const service = serviceFor(tx, actor);
    // Parent before thread: the same lock order as a send that opens or reuses a thread.
    const { parent, thread } = await service(async (tx) => ({ parent: await lockConversation(tx, parentId), thread: await lockConversation(tx, threadId) }));
    if (thread.status !== 'open') throw conflict(thread.status === 'resolved' ? 'api.chat.threadAlready.resolved' : 'api.chat.threadAlready.abandoned');
    const message = await writeMessage(tx, actor, parent, summary, { extractThreads: false, payload: { resolvesThread: threadId } });
    await tx.query(
      `update public.conversations set status = 'resolved', status_changed_at = now(), resolution_message_id = $2, updated_at = now() where id = $1`,
      [threadId, message.id],
    );
    await service((tx) => dropQueued(tx, { conversationIds: [threadId] }));
    await publish(tx, { type: 'conversation', workspaceId: thread.workspace_id, conversationId: threadId });
    return { threadId, message };
  };
  if (actor.kind === 'person') {
    return withUser(actor.user, async (tx) => {
      const thread = await requireVisibleConversation(tx, threadId);
      if (thread.kind !== 'thread') throw new ApiError('bad_request', 'api.chat.onlyThreadsResolve');
      return resolve(tx, thread.parent_conversation_id!);
    }).catch(rethrowAsApiError);
  }
  return asService(async (tx) => {
    await requireAgentMembership(tx, actor.agentId, threadId);
    const [thread] = await tx.query<{ kind: string; parent_conversation_id: string }>(
      `select kind, parent_conversation_id from public.conversations where id = $1`,
      [threadId],
    );
    if (thread!.kind !== 'thread') throw new ApiError('bad_request', 'api.chat.onlyThreadsResolve');
    return resolve(tx, thread!.parent_conversation_id);
  }).catch(rethrowAsApiError);
}

/**
 * Side threads nobody wrote in for `idleMinutes` turn abandoned, and what was still queued in them
 * is dropped. Background work (a cron calls it); returns the threads it abandoned.
 */
export async function abandonStalledThreads(idleMinutes = 60): Promise<string[]> {
  return asService(async (tx) => {
    const rows = await tx.query<{ id: string; workspace_id: string }>(
      `update public.conversations set status = 'abandoned', status_changed_at = now(), updated_at = now()
        where status = 'open' and last_message_at < now() - make_interval(mins => $1)
        returning id, workspace_id`,
      [idleMinutes],
    );
    if (rows.length === 0) return [];
    await dropQueued(tx, { conversationIds: rows.map((r) => r.id) });
    for (const r of rows) await publish(tx, { type: 'conversation', workspaceId: r.workspace_id, conversationId: r.id });
    return rows.map((r) => r.id);
  });
}
