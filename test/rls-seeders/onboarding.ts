import type { WorkspaceDataSeeder } from '../rls-fixture';

/**
 * Onboarding drafts are a person's: member A's and owner B's are the rows the person-scoped checks look
 * at; owner A's links workspace A (a finished onboarding), for the write rules.
 */
export default (async (tx, world, workspace) => {
  const rows: [string, string | null][] = workspace.id === world.a.id ? [[world.memberA.id, null], [world.ownerA.id, world.a.id]] : [[world.ownerB.id, workspace.id]];
  for (const [userId, workspaceId] of rows) {
    await tx.query(
      `insert into public.onboarding (user_id, step, answers, workspace_id, completed_at)
       values ($1, 'services', '{"name":"Studio"}', $2, case when $2::uuid is null then null else now() end)`,
      [userId, workspaceId],
    );
  }
}) satisfies WorkspaceDataSeeder;
