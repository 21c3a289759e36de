-- Autonomy: how far each planet's agents may act on their own, the kill switches, every proposed or
-- executed action (agent_decisions, hash-bound), the daily insights, the message outbox, and each
-- person's Home layout.
--
-- Who writes what:
--   * admins and the owner write the autonomy settings (levels, kill switches, automatic action types);
--   * members update an insight's status (seen / dismissed) and their own Home layout;
--   * only service code writes agent_decisions and outbox_messages: approving, rejecting and undoing
--     are user actions, but lib/autonomy checks the role and then executes inside the same
--     transaction with the service role (`elevated`), because execution touches tables and columns no
--     user may write (the outbox, appointments.reminder_sent_at, waitlist_entries.notified_at);
--   * private.analysis_days is the daily analysis's claim book (service only).

-- Autonomy settings ----------------------------------------------------------------------------------

-- The workspace kill switch. No row = not paused.
create table public.workspace_autonomy (
  workspace_id uuid primary key references public.workspaces (id) on delete cascade,
  paused boolean not null default false,
  updated_by uuid references auth.users (id) on delete set null,
  updated_at timestamptz not null default now()
);
create index workspace_autonomy_updated_by_idx on public.workspace_autonomy (updated_by);

-- Per planet: off (the planet does nothing), propose (default: every action waits for an OK), auto.
-- `paused` is the planet's kill switch: it stops the planet whatever its level, and releasing it
-- restores the level. No row = propose, not paused.
create table public.workspace_planet_autonomy (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  planet text not null check (planet in ('booking', 'crm', 'sales', 'content', 'marketing', 'web')),
  autonomy text not null default 'propose' check (autonomy in ('off', 'propose', 'auto')),
  paused boolean not null default false,
  updated_by uuid references auth.users (id) on delete set null,
  updated_at timestamptz not null default now(),
  primary key (workspace_id, planet)
);
create index workspace_planet_autonomy_updated_by_idx on public.workspace_planet_autonomy (updated_by);

-- Per action type: `auto` once the owner accepted "do this automatically" (the 3-approval promotion),
-- on a planet that is otherwise at `propose`. `suggestion_dismissed_at`: "not now" — the suggestion
-- comes back only after three more approvals.
create table public.workspace_action_autonomy (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  action_type text not null check (action_type in ('booking_reminder', 'waitlist_offer', 'win_back', 'deal_follow_up')),
  auto boolean not null default false,
  suggestion_dismissed_at timestamptz,
  updated_by uuid references auth.users (id) on delete set null,
  updated_at timestamptz not null default now(),
  primary key (workspace_id, action_type)
);
create index workspace_action_autonomy_updated_by_idx on public.workspace_action_autonomy (updated_by);

-- What an action of this planet and type may do now: 'paused' (a kill switch is on), 'off', 'propose'
-- or 'auto'. The one definition, read by the authorizer, the approval path, the reminder flow, the
-- outbox and the UI. Invoker's rights: a member calling it reads only what RLS shows them.
create function private.action_tier(p_workspace_id uuid, p_planet text, p_action_type text) returns text
language sql stable set search_path = ''
as $$
  select case
    when coalesce((select a.paused from public.workspace_autonomy a where a.workspace_id = p_workspace_id), false) then 'paused'
    when coalesce(p.paused, false) then 'paused'
    when coalesce(p.autonomy, 'propose') = 'off' then 'off'
    when coalesce(p.autonomy, 'propose') = 'auto' then 'auto'
    when coalesce((select x.auto from public.workspace_action_autonomy x
                    where x.workspace_id = p_workspace_id and x.action_type = p_action_type), false) then 'auto'
    else 'propose'
  end
  from (select 1) one
  left join public.workspace_planet_autonomy p on p.workspace_id = p_workspace_id and p.planet = p_planet
$$;
revoke execute on function private.action_tier(uuid, text, text) from public;
grant execute on function private.action_tier(uuid, text, text) to authenticated;

-- Insights ---------------------------------------------------------------------------------------------

-- What the daily analysis found, one row per workspace, planet, local day and kind: a re-run the same
-- day updates the row (never a second one) and keeps its status; a dismissed row is not touched.
-- Rule-based insights carry `kind` + `params` (the UI words them in the reader's language); an agent's
-- carry the title and body it wrote.
create table public.workspace_insights (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  planet text not null check (planet in ('booking', 'crm', 'sales', 'content', 'marketing', 'web')),
  insight_date date not null,
  kind text not null check (kind ~ '^[a-z0-9_:.]{1,80}$'),
  severity text not null check (severity in ('info', 'watch', 'act')),
  title text not null default '' check (length(title) <= 200),
  body text not null default '' check (length(body) <= 2000),
  params jsonb not null default '{}'::jsonb,
  source text not null check (source in ('agent', 'rules')),
  status text not null default 'new' check (status in ('new', 'seen', 'dismissed', 'actioned')),
  -- The agent run that produced it (agent_runs is written when the run ends, so no foreign key).
  agent_run_id uuid,
  status_changed_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (workspace_id, planet, insight_date, kind)
);
create index workspace_insights_date_idx on public.workspace_insights (workspace_id, insight_date desc);
create index workspace_insights_status_changed_by_idx on public.workspace_insights (status_changed_by);

-- Decisions ----------------------------------------------------------------------------------------------

-- Every action an agent, a rule or a flow proposed or carried out. `args` are the exact arguments the
-- action runs with (recipient, message…) and `args_hash` their hash: approval names the hash it saw,
-- and execution re-hashes `args` and compares, so what was approved is exactly what runs. `details`
-- are display-only (names, times, the why). `dedupe_key` makes proposing idempotent: the same action
-- on the same subject is recorded once however often the analysis or a flow runs.
create table public.agent_decisions (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  planet text not null check (planet in ('booking', 'crm', 'sales', 'content', 'marketing', 'web')),
  action_type text not null check (action_type in ('booking_reminder', 'waitlist_offer', 'win_back', 'deal_follow_up')),
  args jsonb not null,
  args_hash text not null check (args_hash ~ '^[0-9a-f]{64}$'),
  details jsonb not null default '{}'::jsonb,
  dedupe_key text not null check (length(dedupe_key) between 1 and 200),
  -- propose: waited for a person's OK; auto: ran on its own under the autonomy settings.
  tier text not null check (tier in ('propose', 'auto')),
  status text not null check (status in ('proposed', 'approved', 'rejected', 'executed', 'failed', 'expired', 'undone')),
  -- What started it: 'cron:analyze_planet_data', 'event:booking/created', 'agent:<tool>'…
  trigger text not null check (length(trigger) between 1 and 120),
  agent_run_id uuid,
  insight_id uuid references public.workspace_insights (id) on delete set null,
  -- A proposal not decided by then can no longer be approved.
  expires_at timestamptz not null,
  decided_by uuid references auth.users (id) on delete set null,
  decided_at timestamptz,
  executed_at timestamptz,
  -- What execution did ({messageIds, previous…}), enough to undo it.
  result jsonb,
  error text check (length(error) <= 500),
  undone_by uuid references auth.users (id) on delete set null,
  undone_at timestamptz,
  created_at timestamptz not null default now(),
  unique (workspace_id, dedupe_key),
  check (status not in ('executed', 'undone') or executed_at is not null)
);
-- Needs-your-OK (proposed, newest first), Done (executed in the last day), history and promotion counts.
create index agent_decisions_status_idx on public.agent_decisions (workspace_id, status, created_at desc);
create index agent_decisions_executed_idx on public.agent_decisions (workspace_id, executed_at desc) where executed_at is not null;
create index agent_decisions_type_idx on public.agent_decisions (workspace_id, action_type, decided_at) where tier = 'propose';
create index agent_decisions_insight_idx on public.agent_decisions (insight_id);
create index agent_decisions_decided_by_idx on public.agent_decisions (decided_by);
create index agent_decisions_undone_by_idx on public.agent_decisions (undone_by);
-- The hourly expiry sweep.
create index agent_decisions_expiry_idx on public.agent_decisions (expires_at) where status = 'proposed';

-- Outbox ---------------------------------------------------------------------------------------------

-- Every message an action sends. No provider is connected yet: a background function marks a queued
-- message `sent` once `send_after` has passed (a short delay, which is also the undo window, moved
-- out of the workspace's quiet hours). A real SMS / email provider plugs in at that one place.
create table public.outbox_messages (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  decision_id uuid references public.agent_decisions (id) on delete set null,
  customer_id uuid,
  channel text not null check (channel in ('sms', 'email', 'whatsapp')),
  recipient text not null check (length(recipient) between 3 and 320),
  recipient_name text not null default '' check (length(recipient_name) <= 120),
  subject text not null default '' check (length(subject) <= 200),
  body text not null check (length(body) between 1 and 2000),
  status text not null default 'queued' check (status in ('queued', 'sent', 'cancelled', 'failed')),
  send_after timestamptz not null,
  sent_at timestamptz,
  cancelled_at timestamptz,
  error text check (length(error) <= 500),
  created_at timestamptz not null default now(),
  check ((status = 'sent') = (sent_at is not null)),
  check ((status = 'cancelled') = (cancelled_at is not null)),
  foreign key (workspace_id, customer_id) references public.customers (workspace_id, id) on delete set null (customer_id)
);
create index outbox_messages_workspace_idx on public.outbox_messages (workspace_id, created_at desc);
create index outbox_messages_due_idx on public.outbox_messages (send_after) where status = 'queued';
create index outbox_messages_decision_idx on public.outbox_messages (decision_id);
create index outbox_messages_customer_idx on public.outbox_messages (workspace_id, customer_id);

-- Home layout ------------------------------------------------------------------------------------------

-- Each person's order and pins of the Home's sections and planets in a workspace ({sections, planets,
-- pinnedSections, pinnedPlanets}, validated by lib/home). Coworkers may read it (it is only a layout);
-- only its person writes it.
create table public.workspace_home_prefs (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  prefs jsonb not null default '{}'::jsonb check (jsonb_typeof(prefs) = 'object' and length(prefs::text) <= 2000),
  updated_at timestamptz not null default now(),
  primary key (workspace_id, user_id)
);
create index workspace_home_prefs_user_idx on public.workspace_home_prefs (user_id);

-- The daily analysis's claims: one row per workspace, local date and planet, taken by the hourly fan-out
-- before it sends the planet's run, so a day is analysed once however often the cron fires.
create table private.analysis_days (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  local_date date not null,
  planet text not null,
  claimed_at timestamptz not null,
  finished_at timestamptz,
  outcome jsonb,
  primary key (workspace_id, local_date, planet)
);

-- Privileges ---------------------------------------------------------------------------------------------

revoke all on table
  public.workspace_autonomy, public.workspace_planet_autonomy, public.workspace_action_autonomy,
  public.workspace_insights, public.agent_decisions, public.outbox_messages, public.workspace_home_prefs
  from anon, authenticated;

grant select on
  public.workspace_autonomy, public.workspace_planet_autonomy, public.workspace_action_autonomy,
  public.workspace_insights, public.agent_decisions, public.outbox_messages, public.workspace_home_prefs
  to authenticated;

grant insert (workspace_id, paused, updated_by, updated_at) on public.workspace_autonomy to authenticated;
grant update (paused, updated_by, updated_at) on public.workspace_autonomy to authenticated;
grant insert (workspace_id, planet, autonomy, paused, updated_by, updated_at) on public.workspace_planet_autonomy to authenticated;
grant update (autonomy, paused, updated_by, updated_at) on public.workspace_planet_autonomy to authenticated;
grant insert (workspace_id, action_type, auto, suggestion_dismissed_at, updated_by, updated_at) on public.workspace_action_autonomy to authenticated;
grant update (auto, suggestion_dismissed_at, updated_by, updated_at) on public.workspace_action_autonomy to authenticated;
grant update (status, status_changed_by, updated_at) on public.workspace_insights to authenticated;
grant insert (workspace_id, user_id, prefs, updated_at) on public.workspace_home_prefs to authenticated;
grant update (prefs, updated_at) on public.workspace_home_prefs to authenticated;

alter table public.workspace_autonomy enable row level security;
alter table public.workspace_planet_autonomy enable row level security;
alter table public.workspace_action_autonomy enable row level security;
alter table public.workspace_insights enable row level security;
alter table public.agent_decisions enable row level security;
alter table public.outbox_messages enable row level security;
alter table public.workspace_home_prefs enable row level security;

create policy workspace_autonomy_select on public.workspace_autonomy for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy workspace_autonomy_insert on public.workspace_autonomy for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()) and updated_by = (select auth.uid()));
create policy workspace_autonomy_update on public.workspace_autonomy for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids()))
  with check (workspace_id in (select private.admin_workspace_ids()) and updated_by = (select auth.uid()));

create policy workspace_planet_autonomy_select on public.workspace_planet_autonomy for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy workspace_planet_autonomy_insert on public.workspace_planet_autonomy for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()) and updated_by = (select auth.uid()));
create policy workspace_planet_autonomy_update on public.workspace_planet_autonomy for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids()))
  with check (workspace_id in (select private.admin_workspace_ids()) and updated_by = (select auth.uid()));

create policy workspace_action_autonomy_select on public.workspace_action_autonomy for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy workspace_action_autonomy_insert on public.workspace_action_autonomy for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()) and updated_by = (select auth.uid()));
create policy workspace_action_autonomy_update on public.workspace_action_autonomy for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids()))
  with check (workspace_id in (select private.admin_workspace_ids()) and updated_by = (select auth.uid()));

create policy workspace_insights_select on public.workspace_insights for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy workspace_insights_update on public.workspace_insights for update to authenticated
  using (workspace_id in (select private.member_workspace_ids()))
  with check (workspace_id in (select private.member_workspace_ids()) and status_changed_by = (select auth.uid()));

create policy agent_decisions_select on public.agent_decisions for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));

create policy outbox_messages_select on public.outbox_messages for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));

create policy workspace_home_prefs_select on public.workspace_home_prefs for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy workspace_home_prefs_insert on public.workspace_home_prefs for insert to authenticated
  with check (user_id = (select auth.uid()) and workspace_id in (select private.member_workspace_ids()));
create policy workspace_home_prefs_update on public.workspace_home_prefs for update to authenticated
  using (user_id = (select auth.uid()) and workspace_id in (select private.member_workspace_ids()))
  with check (user_id = (select auth.uid()) and workspace_id in (select private.member_workspace_ids()));
