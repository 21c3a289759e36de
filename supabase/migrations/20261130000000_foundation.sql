-- Foundation: Supabase-compatible roles and auth schema, accounts support tables, workspaces,
-- members, invitations and profiles, with RLS. Runs unchanged on Postgres 15+, PGlite and Supabase:
-- everything Supabase already provides is created only where missing.

-- Roles -------------------------------------------------------------------------------------------
do $$ begin create role anon nologin noinherit; exception when duplicate_object then null; end $$;
do $$ begin create role authenticated nologin noinherit; exception when duplicate_object then null; end $$;
do $$ begin create role service_role nologin noinherit bypassrls; exception when duplicate_object then null; end $$;

-- The auth schema (Supabase has it; embedded mode and plain Postgres get a minimal one) ------------
create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

do $$
begin
  if to_regclass('auth.users') is null then
    create table auth.users (
      id uuid primary key default gen_random_uuid(),
      email text,
      encrypted_password text,
      raw_user_meta_data jsonb not null default '{}'::jsonb,
      email_confirmed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index users_email_key on auth.users (lower(email));
  end if;

  if to_regprocedure('auth.uid()') is null then
    create function auth.uid() returns uuid
      language sql stable
      as $f$
        select nullif(coalesce(
          nullif(current_setting('request.jwt.claim.sub', true), ''),
          nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub'
        ), '')::uuid
      $f$;
  end if;

  if to_regprocedure('auth.jwt()') is null then
    create function auth.jwt() returns jsonb
      language sql stable
      as $f$
        select coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb
      $f$;
  end if;
end $$;

grant execute on function auth.uid() to anon, authenticated, service_role;
grant execute on function auth.jwt() to anon, authenticated, service_role;

-- Private schema: never exposed to anon/authenticated (no grants on its tables) -----------------------
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to authenticated;

create table private.instance_settings (
  key text primary key,
  value text not null,
  created_at timestamptz not null default now()
);

create table private.refresh_tokens (
  token_hash text primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  family_id uuid not null,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
create index refresh_tokens_user_idx on private.refresh_tokens (user_id);
create index refresh_tokens_family_idx on private.refresh_tokens (family_id);

create table private.password_reset_tokens (
  token_hash text primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index password_reset_tokens_user_idx on private.password_reset_tokens (user_id);

-- Mail that would be sent (no mail server here): the dev mailbox and the tests read it.
create table private.email_outbox (
  id uuid primary key default gen_random_uuid(),
  to_email text not null,
  kind text not null,
  subject text not null,
  body text not null,
  link text,
  created_at timestamptz not null default now()
);
create index email_outbox_to_idx on private.email_outbox (lower(to_email), created_at desc);

-- Fixed-window counters shared by every rate limit (login, API submit). Held in Postgres so limits
-- hold across instances.
create table private.rate_limit_counters (
  key text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (key, window_start)
);

create function private.hit_rate_limit(p_key text, p_window_seconds integer, p_limit integer)
returns table (allowed boolean, remaining integer, reset_at timestamptz)
language plpgsql
set search_path = ''
as $$
declare
  v_start timestamptz := to_timestamp(floor(extract(epoch from now()) / p_window_seconds) * p_window_seconds);
  v_hits integer;
begin
  insert into private.rate_limit_counters as c (key, window_start, hits)
  values (p_key, v_start, 1)
  on conflict (key, window_start) do update set hits = c.hits + 1
  returning c.hits into v_hits;
  -- Old windows are dead weight; the caller's key is the only one touched here.
  delete from private.rate_limit_counters where key = p_key and window_start < v_start;
  return query select v_hits <= p_limit, greatest(p_limit - v_hits, 0), v_start + make_interval(secs => p_window_seconds);
end $$;
revoke execute on function private.hit_rate_limit(text, integer, integer) from public;

-- Workspaces ----------------------------------------------------------------------------------------
create table public.workspaces (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(btrim(name)) between 1 and 80),
  is_personal boolean not null default false,
  owner_id uuid not null references auth.users (id) on delete cascade,
  time_zone text not null default 'UTC',
  locale text not null default 'en' check (locale in ('en', 'it')),
  sector text not null default 'other' check (sector ~ '^[a-z_]{2,40}$'),
  plan text not null default 'free' check (plan in ('free', 'pro', 'business')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index workspaces_owner_idx on public.workspaces (owner_id);
create unique index workspaces_one_personal_per_owner on public.workspaces (owner_id) where is_personal;

create table public.workspace_members (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  role text not null check (role in ('owner', 'admin', 'member')),
  created_at timestamptz not null default now(),
  primary key (workspace_id, user_id)
);
create index workspace_members_user_idx on public.workspace_members (user_id, workspace_id, role);

create table public.workspace_invitations (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  email text not null check (email ~ '^[^@\s]+@[^@\s]+$'),
  role text not null default 'member' check (role in ('admin', 'member')),
  token_hash text not null unique,
  invited_by uuid references auth.users (id) on delete set null,
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index workspace_invitations_ws_idx on public.workspace_invitations (workspace_id);
create index workspace_invitations_invited_by_idx on public.workspace_invitations (invited_by);
create index workspace_invitations_accepted_by_idx on public.workspace_invitations (accepted_by);

-- What coworkers may know about each other (auth.users is never readable by authenticated).
create table public.profiles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  email text not null,
  display_name text not null default '' check (length(display_name) <= 80),
  locale text check (locale in ('en', 'it')),
  created_at timestamptz not null default now()
);

-- Membership helpers: security definer so policies can read membership without recursing into
-- workspace_members' own policy. They return sets, so a policy evaluates them once per statement.
create function private.member_workspace_ids() returns setof uuid
language sql stable security definer set search_path = ''
as $$ select workspace_id from public.workspace_members where user_id = (select auth.uid()) $$;

create function private.admin_workspace_ids() returns setof uuid
language sql stable security definer set search_path = ''
as $$ select workspace_id from public.workspace_members where user_id = (select auth.uid()) and role in ('owner', 'admin') $$;

create function private.owned_workspace_ids() returns setof uuid
language sql stable security definer set search_path = ''
as $$ select workspace_id from public.workspace_members where user_id = (select auth.uid()) and role = 'owner' $$;

create function private.coworker_ids() returns setof uuid
language sql stable security definer set search_path = ''
as $$
  select distinct m.user_id from public.workspace_members m
  where m.workspace_id in (select workspace_id from public.workspace_members where user_id = (select auth.uid()))
$$;

revoke execute on function private.member_workspace_ids() from public;
revoke execute on function private.admin_workspace_ids() from public;
revoke execute on function private.owned_workspace_ids() from public;
revoke execute on function private.coworker_ids() from public;
grant execute on function private.member_workspace_ids() to authenticated;
grant execute on function private.admin_workspace_ids() to authenticated;
grant execute on function private.owned_workspace_ids() to authenticated;
grant execute on function private.coworker_ids() to authenticated;

-- Sign-up: every person gets a profile and exactly one personal workspace. A trigger on auth.users,
-- so Supabase Auth sign-ups get them too.
create function private.on_auth_user_created() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_locale text := case when new.raw_user_meta_data ->> 'locale' in ('en', 'it') then new.raw_user_meta_data ->> 'locale' end;
begin
  insert into public.profiles (user_id, email, display_name, locale)
  values (new.id, coalesce(new.email, ''), coalesce(left(new.raw_user_meta_data ->> 'display_name', 80), ''), v_locale);
  insert into public.workspaces (name, is_personal, owner_id, locale, time_zone)
  values ('Personal', true, new.id, coalesce(v_locale, 'en'), coalesce(new.raw_user_meta_data ->> 'time_zone', 'UTC'));
  return new;
end $$;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function private.on_auth_user_created();

create function private.on_auth_user_email_changed() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.profiles set email = coalesce(new.email, '') where user_id = new.id;
  return new;
end $$;

create trigger on_auth_user_email_changed after update of email on auth.users
  for each row execute function private.on_auth_user_email_changed();

-- The creator of a workspace is its owner, set once, forever.
create function private.on_workspace_created() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.workspace_members (workspace_id, user_id, role) values (new.id, new.owner_id, 'owner');
  return new;
end $$;

create trigger on_workspace_created after insert on public.workspaces
  for each row execute function private.on_workspace_created();

create function private.protect_workspace() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    -- A personal workspace goes only with its person (the auth.users cascade).
    if old.is_personal and exists (select 1 from auth.users where id = old.owner_id) then
      raise exception 'A personal workspace cannot be deleted' using errcode = 'P0403';
    end if;
    return old;
  end if;
  if new.owner_id <> old.owner_id or new.is_personal <> old.is_personal then
    raise exception 'The owner and the personal flag of a workspace never change' using errcode = 'P0403';
  end if;
  new.updated_at := now();
  return new;
end $$;

create trigger protect_workspace before update or delete on public.workspaces
  for each row execute function private.protect_workspace();

create function private.protect_owner_membership() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    if old.role = 'owner' and exists (select 1 from public.workspaces where id = old.workspace_id) then
      raise exception 'The owner cannot leave or be removed from their workspace' using errcode = 'P0403';
    end if;
    return old;
  end if;
  if tg_op = 'UPDATE' and (old.role = 'owner' or new.role = 'owner') and new.role is distinct from old.role then
    raise exception 'The owner is set at creation and cannot be reassigned' using errcode = 'P0403';
  end if;
  if tg_op = 'INSERT' and new.role = 'owner' and exists (
    select 1 from public.workspaces where id = new.workspace_id and owner_id <> new.user_id
  ) then
    raise exception 'Only the creator owns a workspace' using errcode = 'P0403';
  end if;
  return new;
end $$;

create trigger protect_owner_membership before insert or update or delete on public.workspace_members
  for each row execute function private.protect_owner_membership();

-- Accepting an invitation: the invitee is not a member yet, so this runs as definer and checks
-- everything itself. Errors carry SQLSTATEs the API maps to 404 / 410 / 403 / 409.
create function public.accept_invitation(p_token_hash text) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_email text;
  v_inv public.workspace_invitations;
begin
  if v_uid is null then
    raise exception 'Sign in to accept an invitation' using errcode = 'P0401';
  end if;
  select * into v_inv from public.workspace_invitations where token_hash = p_token_hash for update;
  if not found then
    raise exception 'This invitation does not exist or was revoked' using errcode = 'P0404';
  end if;
  if v_inv.accepted_at is not null then
    raise exception 'This invitation has already been used' using errcode = 'P0410';
  end if;
  if v_inv.expires_at <= now() then
    raise exception 'This invitation has expired; ask for a new one' using errcode = 'P0410';
  end if;
  select email into v_email from auth.users where id = v_uid;
  if lower(v_email) <> lower(v_inv.email) then
    raise exception 'This invitation was sent to another email address' using errcode = 'P0403';
  end if;
  if exists (select 1 from public.workspace_members where workspace_id = v_inv.workspace_id and user_id = v_uid) then
    raise exception 'You are already a member of this workspace' using errcode = 'P0409';
  end if;
  insert into public.workspace_members (workspace_id, user_id, role) values (v_inv.workspace_id, v_uid, v_inv.role);
  update public.workspace_invitations set accepted_at = now(), accepted_by = v_uid where id = v_inv.id;
  return v_inv.workspace_id;
end $$;
revoke execute on function public.accept_invitation(text) from public;
grant execute on function public.accept_invitation(text) to authenticated;

-- Privileges: nothing by default (Supabase grants everything to anon/authenticated through default
-- privileges), then exactly what each role needs. RLS decides which rows.
revoke all on table public.workspaces, public.workspace_members, public.workspace_invitations, public.profiles
  from anon, authenticated;

grant select, insert, delete on public.workspaces to authenticated;
grant update (name, time_zone, locale, sector) on public.workspaces to authenticated;
grant select, delete on public.workspace_members to authenticated;
grant update (role) on public.workspace_members to authenticated;
grant select, insert, delete on public.workspace_invitations to authenticated;
grant select on public.profiles to authenticated;
grant update (display_name, locale) on public.profiles to authenticated;

alter table public.workspaces enable row level security;
alter table public.workspace_members enable row level security;
alter table public.workspace_invitations enable row level security;
alter table public.profiles enable row level security;

create policy workspaces_select on public.workspaces for select to authenticated
  using (id in (select private.member_workspace_ids()));
create policy workspaces_insert on public.workspaces for insert to authenticated
  with check (owner_id = (select auth.uid()) and not is_personal);
create policy workspaces_update on public.workspaces for update to authenticated
  using (id in (select private.admin_workspace_ids()))
  with check (id in (select private.admin_workspace_ids()));
create policy workspaces_delete on public.workspaces for delete to authenticated
  using (id in (select private.owned_workspace_ids()) and not is_personal);

create policy workspace_members_select on public.workspace_members for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
-- Only the owner changes roles (the trigger keeps the owner's own row fixed).
create policy workspace_members_update on public.workspace_members for update to authenticated
  using (workspace_id in (select private.owned_workspace_ids()))
  with check (workspace_id in (select private.owned_workspace_ids()) and role in ('admin', 'member'));
-- Leave (your own row), the owner removes anyone, an admin removes plain members.
create policy workspace_members_delete on public.workspace_members for delete to authenticated
  using (
    user_id = (select auth.uid())
    or workspace_id in (select private.owned_workspace_ids())
    or (workspace_id in (select private.admin_workspace_ids()) and role = 'member')
  );

create policy workspace_invitations_select on public.workspace_invitations for select to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));
-- Admins invite members; only the owner invites admins (inviting is assigning a role).
create policy workspace_invitations_insert on public.workspace_invitations for insert to authenticated
  with check (
    invited_by = (select auth.uid())
    and (
      workspace_id in (select private.owned_workspace_ids())
      or (workspace_id in (select private.admin_workspace_ids()) and role = 'member')
    )
    and workspace_id not in (select id from public.workspaces where is_personal)
  );
create policy workspace_invitations_delete on public.workspace_invitations for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));

create policy profiles_select on public.profiles for select to authenticated
  using (user_id in (select private.coworker_ids()) or user_id = (select auth.uid()));
create policy profiles_update on public.profiles for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

-- Trigger functions run as definer; nobody calls them directly.
revoke execute on function private.on_auth_user_created() from public;
revoke execute on function private.on_auth_user_email_changed() from public;
revoke execute on function private.on_workspace_created() from public;
