import type { WorkspaceDataSeeder } from '../rls-fixture';

/**
 * Artifacts and cards: in a public channel, an agent's card message with a clicked button, and an
 * artifact with a version and a comment — every public table of the artifacts and cards migration.
 */
export default (async (tx, world, workspace) => {
  const owner = workspace.id === world.a.id ? world.ownerA : world.ownerB;
  const [agent] = await tx.query<{ id: string }>(
    `insert into private.agents (owner_user_id, name, role, visibility) values ($1, 'Scribe ' || left($2::text, 8), 'Writer', 'pinned') returning id`,
    [owner.id, workspace.id],
  );
  await tx.query(`insert into public.workspace_agents (workspace_id, agent_id) values ($1, $2)`, [workspace.id, agent!.id]);
  const [channel] = await tx.query<{ id: string }>(
    `insert into public.conversations (workspace_id, kind, name, visibility, created_by_user_id)
     values ($1, 'channel', 'design-review', 'public', $2) returning id`,
    [workspace.id, owner.id],
  );
  await tx.query(
    `insert into public.conversation_members (workspace_id, conversation_id, user_id, agent_id) values ($1, $2, $3, null), ($1, $2, null, $4)`,
    [workspace.id, channel!.id, owner.id, agent!.id],
  );
  const card = {
    v: 1,
    id: 'c1',
    type: 'deal',
    template: null,
    blocks: [{ kind: 'title', text: 'Spring offer' }],
    actions: [{ id: 'follow-up', label: 'Follow up', verb: 'follow_up', style: 'primary', approval: false }],
    data: { title: 'Spring offer', value: 1200, currency: 'EUR', stage: 'proposal' },
  };
  const [message] = await tx.query<{ id: string }>(
    `insert into public.messages (workspace_id, conversation_id, author_kind, author_agent_id, author_name, body, payload)
     values ($1, $2, 'agent', $3, 'Scribe', 'Spring offer', $4::text::jsonb) returning id`,
    [workspace.id, channel!.id, agent!.id, JSON.stringify({ cards: [card] })],
  );
  await tx.query(
    `insert into public.card_actions (workspace_id, conversation_id, message_id, card_id, action_id, verb, agent_id, status, clicked_by)
     values ($1, $2, $3, 'c1', 'follow-up', 'follow_up', $4, 'pending', $5)`,
    [workspace.id, channel!.id, message!.id, agent!.id, owner.id],
  );
  const [artifact] = await tx.query<{ id: string }>(
    `insert into public.artifacts (workspace_id, conversation_id, message_id, kind, title, created_by_agent_id)
     values ($1, $2, $3, 'document', 'Brief', $4) returning id`,
    [workspace.id, channel!.id, message!.id, agent!.id],
  );
  await tx.query(
    `insert into public.artifact_versions (workspace_id, conversation_id, artifact_id, version, title, content, author_kind, author_agent_id, author_name)
     values ($1, $2, $3, 1, 'Brief', '# Brief\nHello', 'agent', $4, 'Scribe')`,
    [workspace.id, channel!.id, artifact!.id, agent!.id],
  );
  await tx.query(
    `insert into public.artifact_comments (workspace_id, conversation_id, artifact_id, version, line, quote, body, author_kind, author_user_id, author_name)
     values ($1, $2, $3, 1, 2, 'Hello', 'Warmer, please', 'person', $4, 'Owner')`,
    [workspace.id, channel!.id, artifact!.id, owner.id],
  );
}) satisfies WorkspaceDataSeeder;
