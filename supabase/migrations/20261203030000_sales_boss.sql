-- Sales boss view (docs/sales.md): quotas, territories, commission plans and call scripts.
--
-- Who writes what: owners and admins set quotas, territories, commission plans and who is on which
-- plan, and edit the call scripts; every member reads quotas, territories and scripts (the leaderboard
-- and the pipeline are the team's). Commission is private: a member reads only their own assignment
-- and the plan it names; owners and admins read everyone's.

-- Where a deal or a lead comes from, for the territories' rules; what a deal sells, for per-product rates.
alter table public.deals
  add column product text check (length(btrim(product)) between 1 and 80),
  add column postcode text check (length(btrim(postcode)) between 1 and 16),
  add column city text check (length(btrim(city)) between 1 and 80),
  add column sector text check (length(btrim(sector)) between 1 and 60),
  add column source text check (source in ('instagram', 'facebook', 'google', 'website', 'referral', 'walk_in', 'phone', 'other'));
grant insert (product, postcode, city, sector, source) on public.deals to authenticated;
grant update (product, postcode, city, sector, source) on public.deals to authenticated;

alter table public.leads
  add column owner_user_id uuid references auth.users (id) on delete set null,
  add column postcode text check (length(btrim(postcode)) between 1 and 16),
  add column city text check (length(btrim(city)) between 1 and 80),
  add column sector text check (length(btrim(sector)) between 1 and 60);
create index leads_owner_idx on public.leads (owner_user_id);
grant insert (owner_user_id, postcode, city, sector) on public.leads to authenticated;
grant update (owner_user_id, postcode, city, sector) on public.leads to authenticated;

-- Quotas: a person's (user_id) or the whole team's (user_id null), for a calendar month or quarter of
-- the workspace's time zone, as won value in cents or a count of deals won.
create table public.sales_quotas (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  user_id uuid,
  period text not null check (period in ('month', 'quarter')),
  starts_on date not null,
  metric text not null check (metric in ('won_value', 'won_count')),
  target bigint not null check (target > 0 and target <= 100000000000),
  created_at timestamptz not null default now(),
  unique (workspace_id, id),
  check (extract(day from starts_on) = 1 and (period = 'month' or extract(month from starts_on) in (1, 4, 7, 10))),
  foreign key (workspace_id, user_id) references public.workspace_members (workspace_id, user_id) on delete cascade
);
create unique index sales_quotas_one_per_period on public.sales_quotas
  (workspace_id, coalesce(user_id, '00000000-0000-0000-0000-000000000000'::uuid), period, starts_on);
create index sales_quotas_user_idx on public.sales_quotas (workspace_id, user_id);

-- Territory models: sets of territories, one active at a time; the active one routes leads and deals.
create table public.sales_territory_models (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 80),
  active boolean not null default false,
  created_at timestamptz not null default now(),
  unique (workspace_id, id),
  unique (workspace_id, name)
);
create unique index sales_territory_models_one_active on public.sales_territory_models (workspace_id) where active;

-- A territory: an owner and rules (any rule matching puts a lead or deal in it), tried in `position` order.
create table public.sales_territories (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  model_id uuid not null,
  name text not null check (length(btrim(name)) between 1 and 80),
  owner_user_id uuid not null,
  position integer not null default 0 check (position >= 0),
  -- [{"field": "postcode" | "city" | "sector" | "source", "value": "…"}], validated by lib/sales.
  rules jsonb not null default '[]' check (jsonb_typeof(rules) = 'array' and jsonb_array_length(rules) <= 100),
  created_at timestamptz not null default now(),
  unique (workspace_id, id),
  unique (model_id, name),
  foreign key (workspace_id, model_id) references public.sales_territory_models (workspace_id, id) on delete cascade,
  foreign key (workspace_id, owner_user_id) references public.workspace_members (workspace_id, user_id) on delete cascade
);
create index sales_territories_model_idx on public.sales_territories (workspace_id, model_id, position);
create index sales_territories_owner_idx on public.sales_territories (workspace_id, owner_user_id);

-- Commission plans. Rates in basis points (1250 = 12.5 %), money in cents.
create table public.commission_plans (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 80),
  period text not null check (period in ('month', 'quarter')),
  base_rate_bp integer not null check (base_rate_bp between 0 and 10000),
  -- [{"fromPct": 100, "rateBp": 1500}]: the won value beyond fromPct % of the quota earns rateBp.
  tiers jsonb not null default '[]' check (jsonb_typeof(tiers) = 'array' and jsonb_array_length(tiers) <= 10),
  -- [{"product": "…", "rateBp": 800}]: replaces the base rate for deals of that product.
  product_rates jsonb not null default '[]' check (jsonb_typeof(product_rates) = 'array' and jsonb_array_length(product_rates) <= 50),
  cap_cents bigint check (cap_cents > 0),
  created_at timestamptz not null default now(),
  unique (workspace_id, id),
  unique (workspace_id, name)
);

-- Moving a person to another plan is a delete and an insert: no update.
create table public.commission_assignments (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  user_id uuid not null,
  plan_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (workspace_id, user_id),
  foreign key (workspace_id, user_id) references public.workspace_members (workspace_id, user_id) on delete cascade,
  foreign key (workspace_id, plan_id) references public.commission_plans (workspace_id, id) on delete cascade
);
create index commission_assignments_plan_idx on public.commission_assignments (workspace_id, plan_id);
create index commission_assignments_user_idx on public.commission_assignments (user_id);

-- A call script per stage; placeholders {{customer}}, {{deal}}, {{value}}, {{stage}}, {{last_contact}}, {{owner}}.
create table public.call_scripts (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  stage_id uuid not null,
  body text not null check (length(btrim(body)) between 1 and 4000),
  updated_at timestamptz not null default now(),
  primary key (workspace_id, stage_id),
  foreign key (workspace_id, stage_id) references public.pipeline_stages (workspace_id, id) on delete cascade
);

revoke all on table public.sales_quotas, public.sales_territory_models, public.sales_territories, public.commission_plans,
  public.commission_assignments, public.call_scripts from anon, authenticated;
grant select, delete on table public.sales_quotas, public.sales_territory_models, public.sales_territories, public.commission_plans,
  public.commission_assignments, public.call_scripts to authenticated;
grant insert (workspace_id, user_id, period, starts_on, metric, target) on public.sales_quotas to authenticated;
grant update (target, metric) on public.sales_quotas to authenticated;
grant insert (workspace_id, name, active) on public.sales_territory_models to authenticated;
grant update (name, active) on public.sales_territory_models to authenticated;
grant insert (workspace_id, model_id, name, owner_user_id, position, rules) on public.sales_territories to authenticated;
grant update (name, owner_user_id, position, rules) on public.sales_territories to authenticated;
grant insert (workspace_id, name, period, base_rate_bp, tiers, product_rates, cap_cents) on public.commission_plans to authenticated;
grant update (name, period, base_rate_bp, tiers, product_rates, cap_cents) on public.commission_plans to authenticated;
grant insert (workspace_id, user_id, plan_id) on public.commission_assignments to authenticated;
grant insert (workspace_id, stage_id, body, updated_at) on public.call_scripts to authenticated;
grant update (body, updated_at) on public.call_scripts to authenticated;

alter table public.sales_quotas enable row level security;
alter table public.sales_territory_models enable row level security;
alter table public.sales_territories enable row level security;
alter table public.commission_plans enable row level security;
alter table public.commission_assignments enable row level security;
alter table public.call_scripts enable row level security;

create policy sales_quotas_select on public.sales_quotas for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy sales_territory_models_select on public.sales_territory_models for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy sales_territories_select on public.sales_territories for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy call_scripts_select on public.call_scripts for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
-- Commission: one's own assignment and plan; owners and admins everyone's.
create policy commission_assignments_select on public.commission_assignments for select to authenticated
  using (workspace_id in (select private.admin_workspace_ids())
         or (user_id = (select auth.uid()) and workspace_id in (select private.member_workspace_ids())));
create policy commission_plans_select on public.commission_plans for select to authenticated
  using (workspace_id in (select private.admin_workspace_ids())
         or id in (select a.plan_id from public.commission_assignments a where a.user_id = (select auth.uid())));

create policy sales_quotas_insert on public.sales_quotas for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy sales_quotas_update on public.sales_quotas for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids())) with check (workspace_id in (select private.admin_workspace_ids()));
create policy sales_quotas_delete on public.sales_quotas for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));
create policy sales_territory_models_insert on public.sales_territory_models for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy sales_territory_models_update on public.sales_territory_models for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids())) with check (workspace_id in (select private.admin_workspace_ids()));
create policy sales_territory_models_delete on public.sales_territory_models for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));
create policy sales_territories_insert on public.sales_territories for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy sales_territories_update on public.sales_territories for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids())) with check (workspace_id in (select private.admin_workspace_ids()));
create policy sales_territories_delete on public.sales_territories for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));
create policy commission_plans_insert on public.commission_plans for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy commission_plans_update on public.commission_plans for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids())) with check (workspace_id in (select private.admin_workspace_ids()));
create policy commission_plans_delete on public.commission_plans for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));
create policy commission_assignments_insert on public.commission_assignments for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy commission_assignments_delete on public.commission_assignments for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));
create policy call_scripts_insert on public.call_scripts for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy call_scripts_update on public.call_scripts for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids())) with check (workspace_id in (select private.admin_workspace_ids()));
create policy call_scripts_delete on public.call_scripts for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));
