-- The local background executor: runs the function definitions in inngest/ on Postgres when no Inngest
-- server is configured (the embedded default and the tests). With Inngest Cloud these tables stay empty.
-- Everything lives in `private`: anon/authenticated get no table privileges, only the send function below.

create table private.executor_events (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(name) between 1 and 200),
  data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  -- Set in the transaction that created the event's runs; null marks work for the dispatcher.
  dispatched_at timestamptz
);
create index executor_events_pending_idx on private.executor_events (created_at) where dispatched_at is null;

create table private.executor_runs (
  id uuid primary key default gen_random_uuid(),
  function_id text not null,
  event_id uuid references private.executor_events (id) on delete cascade,
  -- What the handler receives: a copy of the event, or the timer event of a cron run.
  event jsonb not null,
  -- The cron instant this run is for (null for event runs).
  scheduled_at timestamptz,
  status text not null default 'queued'
    check (status in ('queued', 'running', 'sleeping', 'completed', 'failed', 'cancelled')),
  attempt integer not null default 0,
  -- Not claimable before this instant: now for new runs, the backoff of a retry, the wake-up of a sleep.
  run_at timestamptz not null,
  lease_owner text,
  lease_expires_at timestamptz,
  concurrency_key text,
  idempotency_key text,
  error text,
  output jsonb,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  -- One run per function and event, and per function and cron instant, however many executors race.
  unique (function_id, event_id),
  unique (function_id, scheduled_at)
);
create index executor_runs_due_idx on private.executor_runs (run_at) where status in ('queued', 'sleeping');
create index executor_runs_leased_idx on private.executor_runs (function_id, concurrency_key, lease_expires_at)
  where status = 'running';
create index executor_runs_idempotency_idx on private.executor_runs (function_id, idempotency_key, created_at)
  where idempotency_key is not null;
create index executor_runs_event_idx on private.executor_runs (event_id);
create index executor_runs_finished_idx on private.executor_runs (finished_at) where finished_at is not null;

-- Memoized step results: a replayed handler gets these back instead of running the step again.
create table private.executor_steps (
  run_id uuid not null references private.executor_runs (id) on delete cascade,
  step_id text not null,
  output jsonb,
  error text,
  created_at timestamptz not null default now(),
  primary key (run_id, step_id)
);

-- The next instant each cron trigger is due. Advancing it is what enqueues a cron run.
create table private.executor_crons (
  function_id text not null,
  cron text not null,
  next_at timestamptz not null,
  primary key (function_id, cron)
);

revoke all on table private.executor_events, private.executor_runs, private.executor_steps, private.executor_crons
  from anon, authenticated;

-- Wakes listening executors when there is new work, on commit only (NOTIFY is transactional).
create function private.executor_notify() returns trigger
language plpgsql set search_path = ''
as $$
begin
  perform pg_notify('multiverbe_executor', tg_table_name);
  return null;
end $$;
revoke execute on function private.executor_notify() from public;

create trigger executor_events_notify after insert on private.executor_events
  for each statement execute function private.executor_notify();
create trigger executor_runs_notify after insert on private.executor_runs
  for each statement execute function private.executor_notify();

-- Events are written by server code only (a request's own transaction reaches this through
-- `elevated`, so the event commits with the data that caused it). `p_events` is [{name, data}, …].
create function private.executor_send_events(p_events jsonb) returns setof uuid
language sql set search_path = ''
as $$
  insert into private.executor_events (name, data)
  select e ->> 'name', coalesce(e -> 'data', '{}'::jsonb) from jsonb_array_elements(p_events) as e
  returning id
$$;
revoke execute on function private.executor_send_events(jsonb) from public;
grant execute on function private.executor_send_events(jsonb) to service_role;
