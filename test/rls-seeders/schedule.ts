import type { WorkspaceDataSeeder } from '../rls-fixture';

/** Routines: one for the workspace's agent (the chat seeder's), with one run. Runs after chat.ts. */
export default (async (tx, world, workspace) => {
  const owner = workspace.id === world.a.id ? world.ownerA : world.ownerB;
  const [routine] = await tx.query<{ id: string }>(
    `insert into public.routines (workspace_id, agent_id, name, instruction, cron, next_run_at, created_by)
     select $1, wa.agent_id, 'Morning bookings', 'Summarise the bookings.', '0 7 * * *', now() + interval '1 day', $2
       from public.workspace_agents wa where wa.workspace_id = $1 limit 1
     returning id`,
    [workspace.id, owner.id],
  );
  if (!routine) throw new Error('The chat seeder must give the workspace an agent first');
  await tx.query(`insert into public.routine_runs (workspace_id, routine_id, due_at) values ($1, $2, now())`, [workspace.id, routine.id]);
}) satisfies WorkspaceDataSeeder;
