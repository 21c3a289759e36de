import type { WorkspaceDataSeeder } from '../rls-fixture';

/**
 * One row in each sales boss table. The commission assignment is member A's own in workspace A (the
 * suite checks a member reads every row of their workspace; lib/sales/boss.test.ts proves a member
 * reads no one else's).
 */
export default (async (tx, world, workspace) => {
  const person = workspace.id === world.a.id ? world.memberA.id : world.ownerB.id;
  await tx.query(
    `with q as (insert into public.sales_quotas (workspace_id, user_id, period, starts_on, metric, target) values ($1, $2, 'month', '2026-12-01', 'won_value', 100000)),
          m as (insert into public.sales_territory_models (workspace_id, name, active) values ($1, 'Area', true) returning id),
          t as (insert into public.sales_territories (workspace_id, model_id, name, owner_user_id, rules)
                select $1, m.id, 'Milano', $2, '[{"field": "city", "value": "Milano"}]' from m),
          p as (insert into public.commission_plans (workspace_id, name, period, base_rate_bp) values ($1, 'Standard', 'month', 1000) returning id),
          a as (insert into public.commission_assignments (workspace_id, user_id, plan_id) select $1, $2, p.id from p)
     insert into public.call_scripts (workspace_id, stage_id, body)
     select $1, id, 'Buongiorno {{customer}}' from public.pipeline_stages where workspace_id = $1 limit 1`,
    [workspace.id, person],
  );
}) satisfies WorkspaceDataSeeder;
