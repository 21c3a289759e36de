import type { WorkspaceDataSeeder } from '../rls-fixture';

/** A customer conversation with an unknown sender (lib/inbound writes these as the service; members only read them). */
export default (async (tx, _world, workspace) => {
  const [c] = await tx.query<{ id: string }>(
    `insert into public.conversations (workspace_id, kind, name, visibility) values ($1, 'customer', '+393330000000', 'private') returning id`,
    [workspace.id],
  );
  await tx.query(`insert into public.customer_conversations (conversation_id, workspace_id, phone, channel) values ($1, $2, '+393330000000', 'sms')`, [
    c!.id,
    workspace.id,
  ]);
}) satisfies WorkspaceDataSeeder;
