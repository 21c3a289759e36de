-- Routines: a standing instruction for one of the workspace's agents, run on a schedule instead of
-- waiting to be asked. When one comes due, the scheduler (inngest/functions/run-due-routines.ts, every
-- five minutes) writes its instruction as a real message in the DM between the routine's creator and
-- the agent, so the agent answers it like any other message (lib/schedule).

create table public.routines (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null,
  agent_id uuid not null,
  name text not null check (length(name) between 1 and 80 and name = btrim(name)),
  instruction text not null check (length(instruction) between 1 and 4000),
  -- Exactly one schedule: every N minutes, or a five-field cron in the workspace's time zone.
  interval_minutes integer check (interval_minutes between 5 and 10080),
  cron text check (length(cron) between 9 and 100),
  enabled boolean not null default true,
  -- When the next run is due; null exactly while the routine is paused.
  next_run_at timestamptz,
  -- Whose DM the runs are written in; when that person is gone, the workspace owner's.
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- An agent that leaves the workspace takes its routines there with it.
  foreign key (workspace_id, agent_id) references public.workspace_agents (workspace_id, agent_id) on delete cascade,
  check ((interval_minutes is null) <> (cron is null)),
  check (enabled = (next_run_at is not null))
);
create index routines_workspace_idx on public.routines (workspace_id, created_at);
create index routines_agent_idx on public.routines (workspace_id, agent_id);
create index routines_created_by_idx on public.routines (created_by);
create index routines_due_idx on public.routines (next_run_at) where next_run_at is not null;

-- One row per time a routine fired: the scheduled instant (unique, so a tick that runs twice fires a
-- slot once) or, for "Run now", the instant of the click.
create table public.routine_runs (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  routine_id uuid not null references public.routines (id) on delete cascade,
  due_at timestamptz not null,
  manual boolean not null default false,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  -- Claimed for delivery until then (the one claim pattern: a crashed sender's run is claimed again).
  lease_until timestamptz,
  attempts integer not null default 0,
  conversation_id uuid references public.conversations (id) on delete set null,
  message_id uuid references public.messages (id) on delete set null,
  error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  unique (routine_id, due_at)
);
create index routine_runs_workspace_idx on public.routine_runs (workspace_id);
create index routine_runs_pending_idx on public.routine_runs (created_at) where status = 'pending';
create index routine_runs_conversation_idx on public.routine_runs (conversation_id);
create index routine_runs_message_idx on public.routine_runs (message_id);

-- At most ten routines per agent in a workspace, whoever writes them. The lock makes two inserts at
-- once count each other.
create function private.limit_routines_per_agent() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform pg_advisory_xact_lock(hashtextextended(new.workspace_id::text || new.agent_id::text, 0));
  if (select count(*) from public.routines r where r.workspace_id = new.workspace_id and r.agent_id = new.agent_id) >= 10 then
    raise exception 'This agent already has 10 routines here, the most it can have. Delete or change one of them first.'
      using errcode = 'P0409';
  end if;
  return new;
end $$;
revoke execute on function private.limit_routines_per_agent() from public;

create trigger routines_limit before insert on public.routines
  for each row execute function private.limit_routines_per_agent();

-- A run's message, found again when its sender crashed between writing it and marking the run sent.
create index messages_routine_run_idx on public.messages ((payload -> 'via' ->> 'runId'))
  where payload -> 'via' ->> 'kind' = 'routine';

create trigger routines_updated_at before update on public.routines
  for each row execute function private.touch_updated_at();

revoke all on table public.routines, public.routine_runs from anon, authenticated;
grant select on public.routines, public.routine_runs to authenticated;
grant insert (workspace_id, agent_id, name, instruction, interval_minutes, cron, enabled, next_run_at, created_by) on public.routines to authenticated;
grant update (name, instruction, interval_minutes, cron, enabled, next_run_at) on public.routines to authenticated;
grant delete on public.routines to authenticated;

alter table public.routines enable row level security;
alter table public.routine_runs enable row level security;

-- Members see the workspace's routines and their runs; owners and admins create, change and delete
-- routines. Runs are written by the scheduler only (as service).
create policy routines_select on public.routines for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy routines_insert on public.routines for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()) and created_by = (select auth.uid()));
create policy routines_update on public.routines for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids()))
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy routines_delete on public.routines for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));
create policy routine_runs_select on public.routine_runs for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
