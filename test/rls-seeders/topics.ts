import type { WorkspaceDataSeeder } from '../rls-fixture';

/**
 * The topic queue: an API key, the queue setting, a topic with a session and one request in it —
 * every public table of the topics migration.
 */
export default (async (tx, world, workspace) => {
  const owner = workspace.id === world.a.id ? world.ownerA : world.ownerB;
  const [key] = await tx.query<{ id: string }>(
    `insert into public.api_keys (workspace_id, name, prefix, key_hash, created_by)
     values ($1::uuid, 'CI', 'mvk_' || left(md5($1::uuid::text), 8), md5('key' || $1::uuid::text), $2) returning id`,
    [workspace.id, owner.id],
  );
  await tx.query(`insert into public.topic_queue_settings (workspace_id, concurrency) values ($1, 1)`, [workspace.id]);
  const [topic] = await tx.query<{ id: string }>(
    `insert into public.topics (workspace_id, name, system_prompt) values ($1, 'coding', 'You are an expert developer.') returning id`,
    [workspace.id],
  );
  const [session] = await tx.query<{ id: string }>(`insert into public.topic_sessions (workspace_id, topic_id) values ($1, $2) returning id`, [
    workspace.id,
    topic!.id,
  ]);
  await tx.query(
    `insert into public.topic_requests (workspace_id, topic_id, session_id, prompt, api_key_id) values ($1, $2, $3, 'How do I write a JWT middleware?', $4)`,
    [workspace.id, topic!.id, session!.id, key!.id],
  );
}) satisfies WorkspaceDataSeeder;
