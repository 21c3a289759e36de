import { rethrowAsApiError } from '@/lib/api';
import { asService } from '@/lib/db';
import { requireConversationAccess, type AuthorKind, type ConversationKind, type MessageAuthorKind, type ConversationStatus } from '@/lib/chat';

/**
 * What an agent connection reads before it answers: the conversation (with who opened it, so an
 * agent knows a side thread or delegation is its own), its members, the agents of the workspace (who
 * a `<dm>` or a delegation can go to) and a page of history. Served to agents, who hold no RLS
 * identity: membership of the conversation is the check.
 */
export interface AgentConversationView {
  conversation: {
    id: string;
    workspaceId: string;
    kind: ConversationKind;
    name: string | null;
    status: ConversationStatus | null;
    parentConversationId: string | null;
    openedBy: { kind: AuthorKind; id: string } | null;
    /** A delegation's result was relayed (or a thread resolved) by this message. */
    resolutionMessageId: string | null;
  };
  members: { kind: AuthorKind; id: string; name: string; role: string | null }[];
  agents: { id: string; name: string; role: string }[];
  /** Oldest first; deleted messages are left out. */
  messages: { id: string; seq: number; authorKind: MessageAuthorKind; authorId: string | null; authorName: string; body: string; createdAt: Date }[];
  nextCursor: number | null;
}

export async function agentConversationView(
  agentId: string,
  conversationId: string,
  query: { before?: number; limit?: number } = {},
): Promise<AgentConversationView> {
  const limit = query.limit ?? 30;
  return asService(async (tx) => {
    await requireConversationAccess(tx, { kind: 'agent', agentId }, conversationId);
    const [c] = await tx.query<{
      id: string;
      workspace_id: string;
      kind: AgentConversationView['conversation']['kind'];
      name: string | null;
      status: AgentConversationView['conversation']['status'];
      parent_conversation_id: string | null;
      created_by_user_id: string | null;
      created_by_agent_id: string | null;
      resolution_message_id: string | null;
    }>(
      `select id, workspace_id, kind, name, status, parent_conversation_id, created_by_user_id, created_by_agent_id, resolution_message_id
         from public.conversations where id = $1`,
      [conversationId],
    );
    const members = await tx.query<{ kind: AuthorKind; id: string; name: string; role: string | null }>(
      `select case when m.agent_id is null then 'person' else 'agent' end as kind, coalesce(m.agent_id, m.user_id) as id,
              coalesce(a.name, nullif(p.display_name, ''), split_part(p.email, '@', 1), 'Someone') as name, a.role
         from public.conversation_members m
         left join private.agents a on a.id = m.agent_id
         left join public.profiles p on p.user_id = m.user_id
        where m.conversation_id = $1 order by m.seq`,
      [conversationId],
    );
    const agents = await tx.query<{ id: string; name: string; role: string }>(
      `select a.id, a.name, a.role from public.workspace_agents wa join private.agents a on a.id = wa.agent_id
        where wa.workspace_id = $1 order by lower(a.name), a.created_at`,
      [c!.workspace_id],
    );
    const rows = await tx.query<{
      id: string;
      seq: number;
      author_kind: MessageAuthorKind;
      author_id: string | null;
      author_name: string;
      body: string;
      created_at: Date;
    }>(
      `select id, seq, author_kind, coalesce(author_user_id, author_agent_id) as author_id, author_name, body, created_at
         from public.messages
        where conversation_id = $1 and deleted_at is null and ($2::bigint is null or seq < $2)
        order by seq desc limit $3`,
      [conversationId, query.before ?? null, limit + 1],
    );
    const page = rows.slice(0, limit).reverse();
    return {
      conversation: {
        id: c!.id,
        workspaceId: c!.workspace_id,
        kind: c!.kind,
        name: c!.name,
        status: c!.status,
        parentConversationId: c!.parent_conversation_id,
        openedBy: c!.created_by_agent_id
          ? { kind: 'agent' as const, id: c!.created_by_agent_id }
          : c!.created_by_user_id
            ? { kind: 'person' as const, id: c!.created_by_user_id }
            : null,
        resolutionMessageId: c!.resolution_message_id,
      },
      members,
      agents,
      messages: page.map((r) => ({
        id: r.id,
        seq: r.seq,
        authorKind: r.author_kind,
        authorId: r.author_id,
        authorName: r.author_name,
        body: r.body,
        createdAt: r.created_at,
      })),
      nextCursor: rows.length > limit ? page[0]!.seq : null,
    };
  }).catch(rethrowAsApiError);
}
