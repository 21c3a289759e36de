import type { WorkspaceDataSeeder } from '../rls-fixture';

/** A workspace's channel settings (its one row), with a sealed-looking password that no grant reads back. */
export default (async (tx, world, workspace) => {
  const owner = workspace.id === world.a.id ? world.ownerA : world.ownerB;
  await tx.query(
    `insert into public.workspace_channels (workspace_id, smtp_host, smtp_port, smtp_user, smtp_password_sealed, smtp_from, updated_by)
     values ($1, 'smtp.example.test', 587, 'salon', 'v1.test.iv.tag.ciphertext', 'salon@example.test', $2)`,
    [workspace.id, owner.id],
  );
}) satisfies WorkspaceDataSeeder;
