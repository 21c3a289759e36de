-- Connected accounts (lib/connections): a Google or GitHub account a workspace's agents act on, through
-- OAuth 2.0 (authorization code, PKCE S256, state). One connection per provider per workspace. A person's
-- own connection is the one in their personal workspace (only they are a member of it); a team
-- workspace's is managed by its owners and admins and used by its agents.
--
-- The tokens are sealed by lib/secrets (AES-256-GCM, the key outside the database, bound to the row by the
-- context `connection_<column>:<id>`): people read everything but the tokens and the refresh lease.

create table public.connections (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  provider text not null check (provider in ('google', 'github')),
  -- The account as the provider names it (an email address, a GitHub login), shown in Settings.
  account text not null check (length(account) <= 320),
  scopes text[] not null default '{}',
  connected_by uuid references auth.users (id) on delete set null,
  access_token text not null,
  refresh_token text,
  -- Null: the provider gave no expiry (a GitHub OAuth app's token lasts until revoked).
  access_expires_at timestamptz,
  -- Who is refreshing the tokens now, and until when: a refresh token is single-use at some providers,
  -- so only the holder of this lease may spend it (lib/connections/tokens.ts).
  refresh_lease_owner text,
  refresh_lease_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (workspace_id, provider),
  unique (workspace_id, id)
);
create index connections_connected_by_idx on public.connections (connected_by);

revoke all on table public.connections from anon, authenticated;
grant select (id, workspace_id, provider, account, scopes, connected_by, access_expires_at, created_at, updated_at) on public.connections to authenticated;
grant delete on public.connections to authenticated;

alter table public.connections enable row level security;

create policy connections_select on public.connections for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
-- Disconnecting is the owners' and admins' (in a personal workspace: its person).
create policy connections_delete on public.connections for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));

-- A connection being made: the state sent to the provider (stored as its hash), bound to the person and
-- workspace that started it, with the PKCE verifier sealed. Used once: the callback deletes it.
create table private.oauth_states (
  state_hash text primary key,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  provider text not null check (provider in ('google', 'github')),
  code_verifier text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index oauth_states_expires_idx on private.oauth_states (expires_at);
create index oauth_states_workspace_idx on private.oauth_states (workspace_id);
create index oauth_states_user_idx on private.oauth_states (user_id);
revoke all on table private.oauth_states from anon, authenticated;
alter table private.oauth_states enable row level security;
