import type { WorkspaceDataSeeder } from '../rls-fixture';

/** lib/agent: one run and this month's token usage. */
export default (async (tx, _world, workspace) => {
  await tx.query(
    `insert into public.agent_runs (workspace_id, agent_name, planet, trigger, backend, model, ran, stop_reason)
     values ($1, 'Booking', 'booking', 'test', 'offline', 'offline', true, 'finished')`,
    [workspace.id],
  );
  await tx.query(`select public.increment_token_usage($1, 100, 10)`, [workspace.id]);
}) satisfies WorkspaceDataSeeder;
