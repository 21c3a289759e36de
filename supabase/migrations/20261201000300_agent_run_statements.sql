-- The two statements every agent run makes, made cheaper (bench/agent-loop).
--
-- The quota read before the first model call, as a PL/pgSQL function: its plan is kept by the
-- connection after the first runs instead of being planned again on every run (a three-table join).
--
-- The run record no longer needs a transaction: private.add_token_usage adds a run's tokens to the
-- month like public.increment_token_usage, but only reports that the 80% warning is due (the month is
-- at 80% or more and no warning was sent); it does not mark it sent. So the run row and the tokens go in
-- as one autocommit statement, and only when the warning is due does the runtime open a transaction
-- that marks it sent (`warning_sent_at is null` under the row lock: of two runs that both saw it due,
-- one marks it) and writes the email to the outbox. A crash between the two leaves the warning unmarked,
-- and the next run reports it due again: it is sent once, never lost. public.increment_token_usage
-- keeps its contract for its other callers (below).

create function private.agent_quota(p_workspace_id uuid)
returns table (plan text, locale text, cap bigint, used bigint)
language plpgsql
stable
set search_path = ''
as $$
begin
  return query
  select w.plan, w.locale, c.monthly_tokens, coalesce(u.input_tokens + u.output_tokens, 0)
  from public.workspaces w
  join private.plan_token_caps c on c.plan = w.plan
  left join public.workspace_token_usage u
    on u.workspace_id = w.id and u.period_month = date_trunc('month', now() at time zone 'utc')::date
  where w.id = p_workspace_id;
end $$;
revoke execute on function private.agent_quota(uuid) from public;

create function private.add_token_usage(
  p_workspace_id uuid,
  p_in bigint,
  p_out bigint,
  p_cache_read bigint default 0,
  p_cache_write bigint default 0
)
returns table (usage_month date, used_tokens bigint, cap_tokens bigint, warning_due boolean)
language plpgsql
set search_path = ''
as $$
declare
  v_month date := date_trunc('month', now() at time zone 'utc')::date;
  v_used bigint;
  v_sent timestamptz;
  v_cap bigint;
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
  returning u.input_tokens + u.output_tokens, u.warning_sent_at into v_used, v_sent;

  select c.monthly_tokens into v_cap
  from public.workspaces w join private.plan_token_caps c on c.plan = w.plan
  where w.id = p_workspace_id;

  return query select v_month, v_used, v_cap, v_cap is not null and v_sent is null and v_used >= v_cap * 0.8;
end $$;
revoke execute on function private.add_token_usage(uuid, bigint, bigint, bigint, bigint) from public;

-- increment_token_usage keeps its contract (add, and mark the warning sent when it is due) on top of
-- add_token_usage, so the month's arithmetic is written once.
create or replace function public.increment_token_usage(
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
  v_usage record;
  v_warn boolean := false;
begin
  select * into v_usage from private.add_token_usage(p_workspace_id, p_in, p_out, p_cache_read, p_cache_write);
  if v_usage.warning_due then
    update public.workspace_token_usage set warning_sent_at = now()
    where workspace_id = p_workspace_id and period_month = v_usage.usage_month and warning_sent_at is null;
    v_warn := found;
  end if;
  return query select v_usage.used_tokens, v_usage.cap_tokens, v_warn;
end $$;
