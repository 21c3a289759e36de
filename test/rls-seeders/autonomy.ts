import type { WorkspaceDataSeeder } from '../rls-fixture';

/** lib/autonomy, lib/insights, lib/actions, lib/home: one row in each of their tables for the workspace. */
export default (async (tx, _world, workspace) => {
  await tx.query(
    `with owner as (select owner_id as id from public.workspaces where id = $1),
     ws as (insert into public.workspace_autonomy (workspace_id, paused, updated_by) select $1, false, id from owner),
     pl as (insert into public.workspace_planet_autonomy (workspace_id, planet, autonomy) values ($1, 'booking', 'auto')),
     ac as (insert into public.workspace_action_autonomy (workspace_id, action_type, auto) values ($1, 'win_back', true)),
     ins as (
       insert into public.workspace_insights (workspace_id, planet, insight_date, kind, severity, params, source)
       values ($1, 'crm', current_date, 'lapsed_customers', 'watch', '{"count": 3}', 'rules') returning id),
     dec as (
       insert into public.agent_decisions
         (workspace_id, planet, action_type, args, args_hash, dedupe_key, tier, status, trigger, insight_id, expires_at)
       select $1, 'crm', 'win_back', '{"customerId": "x"}', repeat('a', 64), 'win_back:x', 'propose', 'proposed', 'test', ins.id,
              now() + interval '1 day'
         from ins returning id),
     msg as (
       insert into public.outbox_messages (workspace_id, decision_id, channel, recipient, body, send_after)
       select $1, dec.id, 'sms', '+39 333 000 0000', 'Ciao!', now() from dec)
     insert into public.workspace_home_prefs (workspace_id, user_id, prefs)
     select $1, id, '{"sections": ["planets", "needs", "done"]}' from owner`,
    [workspace.id],
  );
}) satisfies WorkspaceDataSeeder;
