import type { WorkspaceDataSeeder } from '../rls-fixture';

/** A Google connection (its tokens as sealed-looking text: the suite reads rows, never opens them). */
export default (async (tx, world, workspace) => {
  const owner = workspace.id === world.a.id ? world.ownerA : world.ownerB;
  await tx.query(
    `insert into public.connections (workspace_id, provider, account, scopes, connected_by, access_token, refresh_token, access_expires_at)
     values ($1, 'google', 'owner@gmail.test', '{https://www.googleapis.com/auth/gmail.compose}', $2, 'v1.test.a.b.c', 'v1.test.d.e.f', now() + interval '1 hour')`,
    [workspace.id, owner.id],
  );
}) satisfies WorkspaceDataSeeder;
