import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ApiError, conflict, notFound, rethrowAsApiError, validate, type FieldErrors } from '@/lib/api';
import { withUser, type SessionUser, type Tx } from '@/lib/db';
import { publish } from '@/lib/realtime';
import type { AuthorKind, ConversationKind, ConversationStatus, ConversationVisibility } from './kinds';
import { requireVisibleConversation } from './pipeline';
import { addMembersSchema, createConversationSchema } from './schemas';

export interface ConversationMember {
  kind: AuthorKind;
  id: string;
  name: string;
}

export interface Conversation {
  id: string;
  workspaceId: string;
  kind: ConversationKind;
  name: string | null;
  visibility: ConversationVisibility;
  status: ConversationStatus | null;
  parentConversationId: string | null;
  parentMessageId: string | null;
  resolutionMessageId: string | null;
  agentsPaused: boolean;
  lastMessageSeq: number | null;
  lastMessageAt: Date | null;
  createdAt: Date;
  members: ConversationMember[];
  /** Whether the caller is a member (a public channel can be read without joining). */
  joined: boolean;
  /** Messages by others after the caller's read marker (0 when not joined). */
  unread: number;
}

// Everything here reads as the caller under RLS; the caller sees only what they may.
// Agent names come from private.visible_agents(), evaluated once per statement.
const conversationSql = `
  with va as materialized (select id, name from private.visible_agents())
  select c.id, c.workspace_id, c.kind, c.name, c.visibility, c.status, c.parent_conversation_id, c.parent_message_id,
         c.resolution_message_id, c.agents_paused, c.last_message_seq, c.last_message_at, c.created_at,
         (me.id is not null) as joined,
         case when me.id is null then 0 else (
           select count(*)::int from public.messages x
            where x.conversation_id = c.id and x.seq > me.last_read_seq and x.deleted_at is null
              and x.author_user_id is distinct from me.user_id) end as unread,
         coalesce((
           select json_agg(json_build_object(
                    'kind', case when m.agent_id is null then 'person' else 'agent' end,
                    'id', coalesce(m.agent_id, m.user_id),
                    'name', coalesce(a.name, nullif(p.display_name, ''), split_part(p.email, '@', 1), 'Someone'))
                  order by m.seq)
             from public.conversation_members m
             left join va a on a.id = m.agent_id
             left join public.profiles p on p.user_id = m.user_id
            where m.conversation_id = c.id), '[]') as members
    from public.conversations c
    left join public.conversation_members me on me.conversation_id = c.id and me.user_id = (select auth.uid())`;

interface ConversationRow {
  id: string;
  workspace_id: string;
  kind: ConversationKind;
  name: string | null;
  visibility: ConversationVisibility;
  status: Conversation['status'];
  parent_conversation_id: string | null;
  parent_message_id: string | null;
  resolution_message_id: string | null;
  agents_paused: boolean;
  last_message_seq: number | null;
  last_message_at: Date | null;
  created_at: Date;
  joined: boolean;
  unread: number;
  members: ConversationMember[];
}

const toConversation = (r: ConversationRow): Conversation => ({
  id: r.id,
  workspaceId: r.workspace_id,
  kind: r.kind,
  name: r.name,
  visibility: r.visibility,
  status: r.status,
  parentConversationId: r.parent_conversation_id,
  parentMessageId: r.parent_message_id,
  resolutionMessageId: r.resolution_message_id,
  agentsPaused: r.agents_paused,
  lastMessageSeq: r.last_message_seq,
  lastMessageAt: r.last_message_at ? new Date(r.last_message_at) : null,
  createdAt: new Date(r.created_at),
  members: r.members,
  joined: r.joined,
  unread: r.unread,
});

async function readConversation(tx: Tx, id: string): Promise<Conversation> {
  const [row] = await tx.query<ConversationRow>(`${conversationSql} where c.id = $1`, [id]);
  if (!row) throw notFound('conversation');
  return toConversation(row);
}

async function requireWorkspace(tx: Tx, workspaceId: string) {
  const [row] = await tx.query(`select 1 from public.workspaces where id = $1`, [workspaceId]);
  if (!row) throw notFound('workspace');
}

/** People must be members of the workspace and agents shown in it. */
async function checkNewMembers(tx: Tx, workspaceId: string, userIds: string[], agentIds: string[]) {
  const [missing] = await tx.query<{ users: string[]; agents: string[] }>(
    `select
       coalesce((select array_agg(u::text) from unnest($2::uuid[]) u
                  where not exists (select 1 from public.workspace_members m where m.workspace_id = $1 and m.user_id = u)), '{}') as users,
       coalesce((select array_agg(a::text) from unnest($3::uuid[]) a
                  where not exists (select 1 from public.workspace_agents w where w.workspace_id = $1 and w.agent_id = a)), '{}') as agents`,
    [workspaceId, userIds, agentIds],
  );
  const fieldErrors: FieldErrors = {};
  if (missing!.users.length) fieldErrors.userIds = [{ key: 'api.chat.notWorkspaceMembers', params: { ids: missing!.users.join(', ') } }];
  if (missing!.agents.length) fieldErrors.agentIds = [{ key: 'api.chat.notWorkspaceAgents', params: { ids: missing!.agents.join(', ') } }];
  if (Object.keys(fieldErrors).length) throw new ApiError('validation_failed', 'api.chat.cannotJoin', undefined, { fieldErrors });
}

/**
 * Adds members, as the person (conversation_members_insert); those already in are skipped. The skip
 * names no conflict target: a target is read, so the new row would also have to pass the select policy,
 * and a new DM is nobody's to read until its first members are in.
 */
async function insertMembers(tx: Tx, workspaceId: string, conversationId: string, userIds: string[], agentIds: string[]) {
  await tx.query(
    `insert into public.conversation_members (workspace_id, conversation_id, user_id)
     select $1, $2, u from unnest($3::uuid[]) with ordinality as t (u, n) order by n
     on conflict do nothing`,
    [workspaceId, conversationId, userIds],
  );
  await tx.query(
    `insert into public.conversation_members (workspace_id, conversation_id, agent_id)
     select $1, $2, a from unnest($3::uuid[]) with ordinality as t (a, n) order by n
     on conflict do nothing`,
    [workspaceId, conversationId, agentIds],
  );
}

/**
 * A channel, or a DM with the given people and agents. A DM with exactly the same members as an
 * existing one is that one (`created: false`).
 */
export async function createConversation(
  user: SessionUser,
  input: z.input<typeof createConversationSchema>,
): Promise<{ conversation: Conversation; created: boolean }> {
  const data = validate(createConversationSchema, input);
  const userIds = [...new Set([user.id, ...data.userIds])];
  const agentIds = [...new Set(data.agentIds)];
  if (data.kind === 'dm' && userIds.length + agentIds.length < 2) {
    throw new ApiError('validation_failed', 'api.chat.dmNeedsSomeone');
  }
  return withUser(user, async (tx) => {
    await requireWorkspace(tx, data.workspaceId);
    await checkNewMembers(tx, data.workspaceId, userIds, agentIds);
    if (data.kind === 'dm') {
      const [existing] = await tx.query<{ id: string }>(
        `select c.id from public.conversations c
          where c.workspace_id = $1 and c.kind = 'dm'
            and (select array_agg(coalesce(m.agent_id, m.user_id) order by coalesce(m.agent_id, m.user_id))
                   from public.conversation_members m where m.conversation_id = c.id)
              = (select array_agg(x order by x) from unnest($2::uuid[]) as x)
          order by c.created_at limit 1`,
        [data.workspaceId, [...userIds, ...agentIds]],
      );
      if (existing) return { conversation: await readConversation(tx, existing.id), created: false };
    }
    // As the person (conversations_insert; its creator brings its first members). The id is chosen
    // here: a private conversation is nobody's to read until its members are in, so the insert cannot
    // return it.
    const id = randomUUID();
    await tx.query(
      `insert into public.conversations (id, workspace_id, kind, name, visibility, created_by_user_id) values ($1, $2, $3, $4, $5, $6)`,
      [id, data.workspaceId, data.kind, data.kind === 'channel' ? data.name : null, data.kind === 'channel' ? data.visibility : 'private', user.id],
    );
    await insertMembers(tx, data.workspaceId, id, userIds, agentIds);
    await publish(tx, { type: 'conversation', workspaceId: data.workspaceId, conversationId: id });
    return { conversation: await readConversation(tx, id), created: true };
  }).catch((error) => {
    if ((error as { code?: string }).code === '23505' && data.kind === 'channel') {
      throw conflict('api.chat.channelTaken', { name: data.name });
    }
    rethrowAsApiError(error);
  });
}

/** The caller's conversations in a workspace (side threads are reached from their messages), latest first. */
export async function listConversations(user: SessionUser, workspaceId: string): Promise<Conversation[]> {
  return withUser(user, async (tx) => {
    await requireWorkspace(tx, workspaceId);
    const rows = await tx.query<ConversationRow>(
      `${conversationSql} where c.workspace_id = $1 and c.kind <> 'thread' order by coalesce(c.last_message_at, c.created_at) desc, c.id`,
      [workspaceId],
    );
    return rows.map(toConversation);
  }).catch(rethrowAsApiError);
}

export async function getConversation(user: SessionUser, conversationId: string): Promise<Conversation> {
  return withUser(user, async (tx) => {
    await requireVisibleConversation(tx, conversationId);
    return readConversation(tx, conversationId);
  }).catch(rethrowAsApiError);
}

/** Adds people and agents to a channel or DM the caller can read (a person may join a public channel). */
export async function addMembers(user: SessionUser, conversationId: string, input: z.input<typeof addMembersSchema>): Promise<Conversation> {
  const data = validate(addMembersSchema, input);
  return withUser(user, async (tx) => {
    const conversation = await readConversation(tx, (await requireVisibleConversation(tx, conversationId)).id);
    if (conversation.kind !== 'channel' && conversation.kind !== 'dm') {
      throw new ApiError('bad_request', 'api.chat.membersChannelsDms');
    }
    // Only members add others; anyone who can read a public channel may join it themselves.
    const joiningOnly = data.agentIds.length === 0 && data.userIds.every((id) => id === user.id);
    if (!conversation.joined && !joiningOnly) throw new ApiError('forbidden', 'api.chat.joinBeforeAdding');
    await checkNewMembers(tx, conversation.workspaceId, data.userIds, data.agentIds);
    await insertMembers(tx, conversation.workspaceId, conversation.id, data.userIds, data.agentIds);
    await publish(tx, { type: 'conversation', workspaceId: conversation.workspaceId, conversationId: conversation.id });
    return readConversation(tx, conversation.id);
  }).catch(rethrowAsApiError);
}

/** Moves the caller's read marker forward to `seq` (default: the latest message). */
export async function markRead(user: SessionUser, conversationId: string, seq?: number): Promise<{ lastReadSeq: number }> {
  return withUser(user, async (tx) => {
    await requireVisibleConversation(tx, conversationId);
    const [row] = await tx.query<{ last_read_seq: number }>(
      `update public.conversation_members m
          set last_read_seq = greatest(m.last_read_seq, least(coalesce($3, c.last_message_seq, 0), coalesce(c.last_message_seq, 0)))
         from public.conversations c
        where c.id = m.conversation_id and m.conversation_id = $1 and m.user_id = $2
        returning m.last_read_seq`,
      [conversationId, user.id, seq ?? null],
    );
    if (!row) throw conflict('api.chat.joinToTrack');
    return { lastReadSeq: row.last_read_seq };
  }).catch(rethrowAsApiError);
}
