-- One lease primitive for every queue (lib/queue). Every queue table leases its rows with the same
-- columns: lease_owner (who may renew and finish the row: a worker, a run, an agent connection),
-- lease_worker (the process that holds it, when one registered), lease_expires_at, and attempts where
-- claims are counted. A lease holds while it has not run out AND its worker is alive: a process that
-- stops beating its heartbeat, or that the next process of the same install declares dead at start,
-- frees its leases at once instead of when they run out.

create table private.queue_workers (
  -- A random id: lease_worker on public tables shows members nothing about the machine.
  id uuid primary key,
  -- Where the process runs: the embedded database's directory, or machine, app directory and port.
  -- Only one process of an install runs at a time, so a new one declares the others dead.
  install text not null,
  host text not null,
  pid integer not null,
  started_at timestamptz not null default now(),
  heartbeat_at timestamptz not null default now(),
  -- Alive until then; every heartbeat moves it. Declaring a worker dead (or its own clean stop) sets
  -- it to now(), which frees every lease it holds in one write.
  alive_until timestamptz not null
);
create index queue_workers_install_idx on private.queue_workers (install, alive_until);
revoke all on table private.queue_workers from anon, authenticated;
alter table private.queue_workers enable row level security;

alter table private.executor_runs add column lease_worker uuid;
alter table private.deliveries add column lease_worker uuid;
alter table public.topic_requests add column lease_worker uuid;

-- Routine runs said `lease_until` and had no owner: the same names as the other queues now.
alter table public.routine_runs rename column lease_until to lease_expires_at;
alter table public.routine_runs add column lease_owner text, add column lease_worker uuid;

-- Host tokens name the process that issued them, so the deliveries a hosted agent's connection claims
-- are held by that process and freed with it.
alter table private.agent_api_keys add column worker_id uuid;
