-- The agent runtime's telemetry and quota: one agent_runs row per run (failed ones too), tokens per
-- workspace per month, monthly caps per plan, and the 80% warning sent once a month. Only background
-- work writes here (asService); members read their own workspaces' rows.

-- Monthly token caps per plan (input incl. cache + output). Changed by an operator; members learn their
-- own workspace's cap through public.workspace_token_cap.
create table private.plan_token_caps (
  plan text primary key check (plan in ('free', 'pro', 'business')),
  monthly_tokens bigint not null check (monthly_tokens > 0),
  updated_at timestamptz not null default now()
);
insert into private.plan_token_caps (plan, monthly_tokens) values
  ('free', 1000000),
  ('pro', 20000000),
  ('business', 100000000);

create table public.agent_runs (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  -- Agents get their own table in a later issue; until then the id is whatever the caller names it.
  agent_id text,
  agent_name text not null default '',
  planet text not null default 'cross',
  trigger text not null,
  backend text not null check (backend in ('anthropic', 'claude-code', 'openai', 'codex', 'offline', 'none')),
  model text not null default '',
  ran boolean not null,
  stop_reason text not null check (
    stop_reason in ('finished', 'no_tool_use', 'max_iter', 'budget', 'deadline', 'quota_exceeded', 'cancelled', 'error')
  ),
  iterations integer not null default 0,
  -- [{name, ok, iteration, ms, argsHash, error?, note?}]: never the arguments themselves.
  tool_calls jsonb not null default '[]'::jsonb,
  -- Writes held for approval: [{tool, planet, input, argsHash}].
  proposals jsonb not null default '[]'::jsonb,
  input_tokens bigint not null default 0,
  output_tokens bigint not null default 0,
  cache_read_tokens bigint not null default 0,
  cache_write_tokens bigint not null default 0,
  duration_ms integer not null default 0,
  -- {finalText, output}: what the run concluded, re-identified.
  outcome jsonb,
  error_kind text,
  error text,
  session_id text,
  created_at timestamptz not null default now()
);
create index agent_runs_workspace_created_idx on public.agent_runs (workspace_id, created_at desc);

-- input_tokens counts all input: uncached + cache reads + cache writes (the breakdown is kept too).
create table public.workspace_token_usage (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  period_month date not null,
  input_tokens bigint not null default 0,
  output_tokens bigint not null default 0,
  cache_read_tokens bigint not null default 0,
  cache_write_tokens bigint not null default 0,
  -- When the owner was told the workspace passed 80% of its cap this month; null until then.
  warning_sent_at timestamptz,
  updated_at timestamptz not null default now(),
  primary key (workspace_id, period_month)
);

-- Adds a run's tokens to this month (UTC) and says whether the 80% warning is due now: it is due
-- exactly once per workspace and month, decided under the row lock so two runs cannot both send it.
create function public.increment_token_usage(
  p_workspace_id uuid,
  p_in bigint,
  p_out bigint,
  p_cache_read bigint default 0,
  p_cache_write bigint default 0
)
returns table (used_tokens bigint, cap_tokens bigint, warn_now boolean)
language plpgsql
set search_path = ''
as $$
declare
  v_month date := date_trunc('month', now() at time zone 'utc')::date;
  v_used bigint;
  v_cap bigint;
  v_warn boolean := false;
begin
  insert into public.workspace_token_usage as u
    (workspace_id, period_month, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens)
  values (p_workspace_id, v_month, p_in, p_out, p_cache_read, p_cache_write)
  on conflict (workspace_id, period_month) do update set
    input_tokens = u.input_tokens + excluded.input_tokens,
    output_tokens = u.output_tokens + excluded.output_tokens,
    cache_read_tokens = u.cache_read_tokens + excluded.cache_read_tokens,
    cache_write_tokens = u.cache_write_tokens + excluded.cache_write_tokens,
    updated_at = now()
  returning u.input_tokens + u.output_tokens into v_used;

  select c.monthly_tokens into v_cap
  from public.workspaces w join private.plan_token_caps c on c.plan = w.plan
  where w.id = p_workspace_id;

  if v_cap is not null and v_used >= v_cap * 0.8 then
    update public.workspace_token_usage set warning_sent_at = now()
    where workspace_id = p_workspace_id and period_month = v_month and warning_sent_at is null;
    v_warn := found;
  end if;
  return query select v_used, v_cap, v_warn;
end $$;
revoke execute on function public.increment_token_usage(uuid, bigint, bigint, bigint, bigint) from public;

-- The cap of a workspace the caller belongs to (null otherwise), for the Usage page.
create function public.workspace_token_cap(p_workspace_id uuid) returns bigint
language sql stable security definer set search_path = ''
as $$
  select c.monthly_tokens from public.workspaces w join private.plan_token_caps c on c.plan = w.plan
  where w.id = p_workspace_id and w.id in (select private.member_workspace_ids())
$$;
revoke execute on function public.workspace_token_cap(uuid) from public;
grant execute on function public.workspace_token_cap(uuid) to authenticated;

-- Privileges: members read; nothing else for anon/authenticated.
revoke all on table public.agent_runs, public.workspace_token_usage from anon, authenticated;
grant select on public.agent_runs to authenticated;
grant select on public.workspace_token_usage to authenticated;

alter table public.agent_runs enable row level security;
alter table public.workspace_token_usage enable row level security;

create policy agent_runs_select on public.agent_runs for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy workspace_token_usage_select on public.workspace_token_usage for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
