-- Onboarding: a new person's set-up of their business, one row per person, saved step by step so it
-- can be left and resumed on another device. The answers are a draft (jsonb, validated by the app on
-- every read and write); nothing of the business exists until the last step creates the workspace, its
-- opening hours, services, staff and starter agents in one transaction and links it here.
--
-- Scoped by person like public.profiles, but private to that person: a coworker has no business reading
-- someone's half-typed draft.

create table public.onboarding (
  user_id uuid primary key references auth.users (id) on delete cascade,
  -- The step the person is on (lib/onboarding ONBOARDING_STEPS).
  step text not null default 'business' check (step in ('business', 'sector', 'place', 'hours', 'services', 'staff', 'team', 'autonomy')),
  answers jsonb not null default '{}'::jsonb check (jsonb_typeof(answers) = 'object' and length(answers::text) <= 40000),
  -- The workspace the last step created; set in the same transaction as completed_at.
  workspace_id uuid references public.workspaces (id) on delete set null,
  skipped_at timestamptz,
  completed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index onboarding_workspace_idx on public.onboarding (workspace_id);

revoke all on table public.onboarding from anon, authenticated;
grant select on public.onboarding to authenticated;
grant insert (user_id, step, answers, skipped_at) on public.onboarding to authenticated;
grant update (step, answers, workspace_id, skipped_at, completed_at, updated_at) on public.onboarding to authenticated;

alter table public.onboarding enable row level security;

create policy onboarding_select on public.onboarding for select to authenticated
  using (user_id = (select auth.uid()));
create policy onboarding_insert on public.onboarding for insert to authenticated
  with check (user_id = (select auth.uid()));
-- The workspace it links must be one the person owns: a draft cannot claim someone else's business.
create policy onboarding_update on public.onboarding for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()) and (workspace_id is null or workspace_id in (select private.owned_workspace_ids())));

-- What the Home says about the daily analysis: whether it ever finished, whether a run is in progress,
-- whether today (the workspace's local date at p_now) is claimed, and when the next fan-out could take
-- it (the next full hour, or the next p_hour:00 local: lib/insights ANALYSIS_HOUR). private.analysis_days is the service's claim book,
-- so members read this summary through a definer function that answers only for their workspaces.
create function private.analysis_state(p_workspace_id uuid, p_now timestamptz, p_hour integer)
returns table (finished_ever boolean, running integer, claimed_today boolean, local_hour integer, next_hour timestamptz, next_daily timestamptz)
language sql stable security definer set search_path = ''
as $$
  select exists (select 1 from private.analysis_days d where d.workspace_id = w.id and d.finished_at is not null),
         -- A claim unfinished for half an hour is a crashed run, not one in progress.
         (select count(*)::int from private.analysis_days d
           where d.workspace_id = w.id and d.finished_at is null and d.claimed_at > p_now - interval '30 minutes'),
         exists (select 1 from private.analysis_days d where d.workspace_id = w.id and d.local_date = (p_now at time zone w.time_zone)::date),
         extract(hour from p_now at time zone w.time_zone)::int,
         date_trunc('hour', p_now) + interval '1 hour',
         (((p_now at time zone w.time_zone)::date
            + case when extract(hour from p_now at time zone w.time_zone) >= p_hour then 1 else 0 end) + make_time(p_hour, 0, 0)) at time zone w.time_zone
    from public.workspaces w
   where w.id = p_workspace_id and w.id in (select private.member_workspace_ids())
$$;
revoke execute on function private.analysis_state(uuid, timestamptz, integer) from public;
grant execute on function private.analysis_state(uuid, timestamptz, integer) to authenticated;
