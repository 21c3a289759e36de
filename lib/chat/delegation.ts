import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ApiError, conflict, forbidden, isUuid, rethrowAsApiError, validate } from '@/lib/api';
import { asService, withUser, type Tx } from '@/lib/db';
import { publish } from '@/lib/realtime';
import { dropQueued } from './deliveries';
import { creatorOf, lockConversation, requireAgentMembership, requireVisibleConversation, serviceFor, writeMessage, type Actor, type SentMessage } from './pipeline';
import { messageBodySchema } from './schemas';

/**
 * Delegation from a DM. A task that starts in a direct message is worked out in a parallel
 * conversation — a conversation record of its own (kind `delegation`), with its own history, linked to
 * the DM and the message it came from — so the back-and-forth between agents never floods the DM.
 * Only the final result comes back: a participant relays it, once, into the DM through the one send
 * path. The DM's people are members of the delegation too, so they can look in if they want to; the
 * DM itself gains no members.
 *
 * In a delegation, as anywhere but side threads, an agent's message wakes only the agents it
 * mentions: the task mentions the agents it goes to, and they mention the delegator to answer.
 */

export const delegateSchema = z.object({
  /** Agent names, as in `<dm target="…">`. */
  to: z.array(z.string().trim().min(1).max(40)).min(1, 'api.chat.nameAnAgent').max(10),
  task: messageBodySchema.shape.body,
  /** The DM message that asked for it (the delegation is linked to it). */
  messageId: z.string().uuid().optional(),
});

export const relaySchema = z.object({ result: messageBodySchema.shape.body });


/** Agents shown in the workspace, by name (case-insensitive); the delegator itself is left out. */
async function resolveAgents(tx: Tx, workspaceId: string, names: string[], actor: Actor): Promise<{ id: string; name: string }[]> {
  const found: { id: string; name: string }[] = [];
  for (const name of names) {
    const rows = await tx.query<{ id: string; name: string }>(
      `select a.id, a.name from public.workspace_agents wa join private.agents a on a.id = wa.agent_id
        where wa.workspace_id = $1 and lower(a.name) = lower($2)`,
      [workspaceId, name],
    );
    if (rows.length === 0) throw new ApiError('validation_failed', 'api.chat.noAgentForTask', { name });
    if (rows.length > 1) throw new ApiError('validation_failed', 'api.chat.ambiguousAgentForTask', { name });
    const agent = rows[0]!;
    if (!(actor.kind === 'agent' && actor.agentId === agent.id) && !found.some((f) => f.id === agent.id)) found.push(agent);
  }
  if (found.length === 0) throw new ApiError('validation_failed', 'api.chat.delegationNeedsAgent');
  return found;
}

/**
 * Opens a delegation from the DM `conversationId`: a new conversation with the delegator, the named
 * agents and the DM's people, whose first message is the task (by the delegator, mentioning the
 * agents so they are asked). Nothing is posted in the DM.
 */
export async function delegate(
  actor: Actor,
  conversationId: string,
  input: z.input<typeof delegateSchema>,
): Promise<{ delegationId: string; message: SentMessage }> {
  const data = validate(delegateSchema, input);
  const open = async (tx: Tx) => {
    const service = serviceFor(tx, actor);
    const dm = await service((tx) => lockConversation(tx, conversationId));
    if (dm.kind !== 'dm') {
      throw new ApiError('bad_request', 'api.chat.delegationFromDm');
    }
    if (data.messageId) {
      const [message] = await tx.query(`select 1 from public.messages where id = $1 and conversation_id = $2`, [data.messageId, dm.id]);
      if (!message) throw new ApiError('validation_failed', 'api.chat.taskMessageElsewhere');
    }
    const agents = await service((tx) => resolveAgents(tx, dm.workspace_id, data.to, actor));
    const people = await tx.query<{ user_id: string }>(
      `select user_id from public.conversation_members where conversation_id = $1 and user_id is not null order by seq`,
      [dm.id],
    );
    // A person's delegation is theirs: written as the person (conversations_insert, conversation_members_insert).
    const id = randomUUID();
    const [creator, creatorId] = creatorOf(actor);
    await tx.query(
      `insert into public.conversations (id, workspace_id, kind, visibility, parent_conversation_id, parent_message_id, ${creator})
       values ($1, $2, 'delegation', 'private', $3, $4, $5)`,
      [id, dm.workspace_id, dm.id, data.messageId ?? null, creatorId],
    );
    // Join order is the fallback order of turns: the delegator, then the agents asked, then people.
    const members: Array<{ userId: string | null; agentId: string | null }> = [
      actor.kind === 'person' ? { userId: actor.user.id, agentId: null } : { userId: null, agentId: actor.agentId },
      ...agents.map((a) => ({ userId: null, agentId: a.id })),
      ...people.filter((p) => !(actor.kind === 'person' && p.user_id === actor.user.id)).map((p) => ({ userId: p.user_id, agentId: null })),
    ];
    await tx.query(
      `insert into public.conversation_members (workspace_id, conversation_id, user_id, agent_id)
       select $1, $2, u, a from unnest($3::uuid[], $4::uuid[]) with ordinality as t (u, a, n) order by n`,
      [dm.workspace_id, id, members.map((m) => m.userId), members.map((m) => m.agentId)],
    );
    await publish(tx, { type: 'conversation', workspaceId: dm.workspace_id, conversationId: id });
    const task = `${agents.map((a) => `@${a.name}`).join(' ')} ${data.task.trim()}`;
    const message = await writeMessage(tx, actor, await service((tx) => lockConversation(tx, id)), task, { extractThreads: false });
    return { delegationId: id, message };
  };
  if (actor.kind === 'person') {
    return withUser(actor.user, async (tx) => {
      await requireVisibleConversation(tx, conversationId);
      return open(tx);
    }).catch(rethrowAsApiError);
  }
  return asService(async (tx) => {
    await requireAgentMembership(tx, actor.agentId, conversationId);
    return open(tx);
  }).catch(rethrowAsApiError);
}

/**
 * Brings a delegation's final result back to the DM it came from, once: the result is posted there
 * by whoever relays it (a participant who is also in the DM), and the delegation records that
 * message. What was still queued in the delegation is dropped.
 */
export async function relayResult(actor: Actor, delegationId: string, input: z.input<typeof relaySchema>): Promise<{ delegationId: string; message: SentMessage }> {
  const { result } = validate(relaySchema, input);
  const relay = async (tx: Tx, parentId: string) => {
    const service = serviceFor(tx, actor);
    // Parent before child: the lock order of every send that touches both.
    const parent = await service(async (tx) => {
      const parent = await lockConversation(tx, parentId);
      await lockConversation(tx, delegationId);
      return parent;
    });
    if (actor.kind === 'agent') {
      const [inParent] = await tx.query(`select 1 from public.conversation_members where conversation_id = $1 and agent_id = $2`, [parent.id, actor.agentId]);
      if (!inParent) throw forbidden('api.chat.relayMembersOnly');
    }
    const [current] = await tx.query<{ resolution_message_id: string | null }>(`select resolution_message_id from public.conversations where id = $1`, [
      delegationId,
    ]);
    if (current!.resolution_message_id) throw conflict('api.chat.alreadyRelayed');
    const message = await writeMessage(tx, actor, parent, result, { extractThreads: false });
    // A person's relay is theirs (conversations_update: their own message in the DM); the queue is the server's.
    await tx.query(`update public.conversations set resolution_message_id = $2, updated_at = now() where id = $1`, [delegationId, message.id]);
    await service((tx) => dropQueued(tx, { conversationIds: [delegationId] }));
    await publish(tx, { type: 'conversation', workspaceId: parent.workspace_id, conversationId: delegationId });
    return { delegationId, message };
  };
  const parentOf = async (tx: Tx) => {
    const [row] = isUuid(delegationId)
      ? await tx.query<{ kind: string; parent_conversation_id: string | null }>(`select kind, parent_conversation_id from public.conversations where id = $1`, [
          delegationId,
        ])
      : [];
    if (row?.kind !== 'delegation') throw new ApiError('bad_request', 'api.chat.relayDelegationOnly');
    return row.parent_conversation_id!;
  };
  if (actor.kind === 'person') {
    return withUser(actor.user, async (tx) => {
      await requireVisibleConversation(tx, delegationId);
      return relay(tx, await parentOf(tx));
    }).catch(rethrowAsApiError);
  }
  return asService(async (tx) => {
    await requireAgentMembership(tx, actor.agentId, delegationId);
    return relay(tx, await parentOf(tx));
  }).catch(rethrowAsApiError);
}
