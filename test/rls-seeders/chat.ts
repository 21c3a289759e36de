import type { WorkspaceDataSeeder } from '../rls-fixture';

/**
 * Conversations: an agent shown in the workspace, a public channel with a person and the agent as
 * members, a message by each, a reaction, and an open side thread off the person's message with both in
 * it — every public table of the chat migration.
 */
export default (async (tx, world, workspace) => {
  const owner = workspace.id === world.a.id ? world.ownerA : world.ownerB;
  const [agent] = await tx.query<{ id: string }>(
    `insert into private.agents (owner_user_id, name, role, capabilities, visibility)
     values ($1, 'Nova ' || left($2::text, 8), 'Bookkeeper', '{invoices}', 'pinned') returning id`,
    [owner.id, workspace.id],
  );
  await tx.query(`insert into public.workspace_agents (workspace_id, agent_id) values ($1, $2)`, [workspace.id, agent!.id]);
  const [channel] = await tx.query<{ id: string }>(
    `insert into public.conversations (workspace_id, kind, name, visibility, created_by_user_id)
     values ($1, 'channel', 'general', 'public', $2) returning id`,
    [workspace.id, owner.id],
  );
  await tx.query(
    `insert into public.conversation_members (workspace_id, conversation_id, user_id, agent_id)
     values ($1, $2, $3, null), ($1, $2, null, $4)`,
    [workspace.id, channel!.id, owner.id, agent!.id],
  );
  const [message] = await tx.query<{ id: string }>(
    `insert into public.messages (workspace_id, conversation_id, author_kind, author_user_id, author_name, body)
     values ($1, $2, 'person', $3, 'Owner', 'Hello @Nova') returning id`,
    [workspace.id, channel!.id, owner.id],
  );
  await tx.query(
    `insert into public.messages (workspace_id, conversation_id, author_kind, author_agent_id, author_name, body)
     values ($1, $2, 'agent', $3, 'Nova', 'Hello!')`,
    [workspace.id, channel!.id, agent!.id],
  );
  await tx.query(
    `insert into public.message_reactions (workspace_id, conversation_id, message_id, user_id, emoji) values ($1, $2, $3, $4, '👍')`,
    [workspace.id, channel!.id, message!.id, owner.id],
  );
  // An open side thread off the owner's message.
  const [thread] = await tx.query<{ id: string }>(
    `insert into public.conversations (workspace_id, kind, visibility, status, status_changed_at, parent_conversation_id, parent_message_id, created_by_user_id)
     values ($1, 'thread', 'private', 'open', now(), $2, $3, $4) returning id`,
    [workspace.id, channel!.id, message!.id, owner.id],
  );
  await tx.query(
    `insert into public.conversation_members (workspace_id, conversation_id, user_id, agent_id) values ($1, $2, $3, null), ($1, $2, null, $4)`,
    [workspace.id, thread!.id, owner.id, agent!.id],
  );
}) satisfies WorkspaceDataSeeder;
