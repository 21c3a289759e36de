-- The topic queue (the OpusAgent contract, per workspace): topics with their system prompts, sessions,
-- the FIFO request queue, the workspace's API keys and its queue setting. Members work with topics,
-- sessions and requests; admins manage API keys and the queue setting. The queue's own columns
-- (status, lease, result) are written only by the background worker (asService): users get no UPDATE
-- on requests at all.

create table public.topics (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 100),
  system_prompt text not null check (length(system_prompt) <= 100000),
  summary text not null default '',
  -- The contract accepts any id starting with `claude-`, for models released later.
  model text check (model ~ '^claude-' and length(model) <= 100),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Target of the composite keys below: what refers to a topic is in the topic's workspace.
  unique (workspace_id, id)
);
-- The contract's UNIQUE name, per workspace. Also the workspace index of the policies.
create unique index topics_workspace_name_key on public.topics (workspace_id, name);

-- A conversation (the contract's session_id). Every request belongs to one: a request sent without a
-- session starts a new one, so a client that wants to continue always has an id to send back.
create table public.topic_sessions (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  topic_id uuid not null,
  -- The backend that keeps this conversation itself (claude-code, codex) and its own session id,
  -- resumed by the next request when the same backend runs it.
  backend text,
  backend_session_id text,
  created_at timestamptz not null default now(),
  closed_at timestamptz,
  -- Foreign keys include the workspace: a member of one workspace who learns an id of another can
  -- never attach a session or request to that workspace's topic (foreign keys bypass RLS).
  foreign key (workspace_id, topic_id) references public.topics (workspace_id, id) on delete cascade,
  unique (workspace_id, topic_id, id)
);
create index topic_sessions_workspace_idx on public.topic_sessions (workspace_id, created_at desc);

-- Keys for the topic API (X-Api-Key). Only a hash is stored; `prefix` identifies a key in lists and
-- narrows the lookup, the hash comparison happens in constant time in the app.
create table public.api_keys (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 80),
  prefix text not null check (length(prefix) between 8 and 20),
  key_hash text not null unique,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_keys_workspace_idx on public.api_keys (workspace_id, created_at desc);
create index api_keys_prefix_idx on public.api_keys (prefix) where revoked_at is null;
create index api_keys_created_by_idx on public.api_keys (created_by);

create table public.topic_requests (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  topic_id uuid not null,
  session_id uuid not null,
  -- Queue order: submission order, without ties (created_at can repeat within a transaction).
  seq bigint generated always as identity,
  prompt text not null check (length(prompt) between 1 and 200000),
  model text check (model ~ '^claude-' and length(model) <= 100),
  summarize boolean not null default false,
  status text not null default 'pending' check (status in ('pending', 'processing', 'completed', 'failed')),
  result text,
  error text,
  -- What actually ran (request → topic → CLAUDE_MODEL, or the backend's own model).
  resolved_model text,
  backend text,
  -- Claims so far; a claim past the limit fails the request instead of running it again.
  attempts integer not null default 0,
  lease_owner text,
  lease_expires_at timestamptz,
  -- Idempotency-Key of the submit and a hash of its body: the same key and body within 24 hours
  -- return this request again.
  idempotency_key text check (length(idempotency_key) between 1 and 255),
  request_hash text,
  api_key_id uuid references public.api_keys (id) on delete set null,
  submitted_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  completed_at timestamptz,
  check ((status in ('completed', 'failed')) = (completed_at is not null)),
  -- The session is of this topic, both of this workspace.
  foreign key (workspace_id, topic_id, session_id) references public.topic_sessions (workspace_id, topic_id, id) on delete cascade
);
-- The claim: a workspace's unfinished requests in queue order.
create index topic_requests_queue_idx on public.topic_requests (workspace_id, seq) where status in ('pending', 'processing');
-- Session order within the claim and the session's history.
create index topic_requests_session_idx on public.topic_requests (session_id, seq);
create index topic_requests_workspace_idx on public.topic_requests (workspace_id, created_at desc);
-- The foreign key's index, also a topic's requests.
create index topic_requests_topic_idx on public.topic_requests (workspace_id, topic_id, session_id);
create unique index topic_requests_idempotency_key on public.topic_requests (workspace_id, idempotency_key)
  where idempotency_key is not null;
create index topic_requests_api_key_idx on public.topic_requests (api_key_id);
create index topic_requests_submitted_by_idx on public.topic_requests (submitted_by);

-- How many requests of the workspace run at once (no row: TOPIC_QUEUE_CONCURRENCY, default 1).
create table public.topic_queue_settings (
  workspace_id uuid primary key references public.workspaces (id) on delete cascade,
  concurrency integer not null check (concurrency between 1 and 10),
  updated_at timestamptz not null default now()
);

create function private.touch_updated_at() returns trigger
language plpgsql set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end $$;
revoke execute on function private.touch_updated_at() from public;

create trigger topics_touch before update on public.topics
  for each row execute function private.touch_updated_at();
create trigger topic_queue_settings_touch before update on public.topic_queue_settings
  for each row execute function private.touch_updated_at();

-- Privileges: nothing by default, then exactly what each table needs. RLS decides which rows.
revoke all on table public.topics, public.topic_sessions, public.topic_requests, public.api_keys, public.topic_queue_settings
  from anon, authenticated;

grant select, insert, delete on public.topics to authenticated;
grant update (name, system_prompt, summary, model) on public.topics to authenticated;
grant select, insert on public.topic_sessions to authenticated;
grant update (closed_at) on public.topic_sessions to authenticated;
grant select, delete on public.topic_requests to authenticated;
grant insert (id, workspace_id, topic_id, session_id, prompt, model, summarize, idempotency_key, request_hash, submitted_by)
  on public.topic_requests to authenticated;
-- Never the hash: members see which keys exist, not what would verify one.
grant select (id, workspace_id, name, prefix, created_by, created_at, last_used_at, revoked_at) on public.api_keys to authenticated;
grant insert (id, workspace_id, name, prefix, key_hash, created_by) on public.api_keys to authenticated;
grant update (revoked_at) on public.api_keys to authenticated;
grant select, insert on public.topic_queue_settings to authenticated;
grant update (concurrency) on public.topic_queue_settings to authenticated;

alter table public.topics enable row level security;
alter table public.topic_sessions enable row level security;
alter table public.topic_requests enable row level security;
alter table public.api_keys enable row level security;
alter table public.topic_queue_settings enable row level security;

create policy topics_select on public.topics for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy topics_insert on public.topics for insert to authenticated
  with check (workspace_id in (select private.member_workspace_ids()));
create policy topics_update on public.topics for update to authenticated
  using (workspace_id in (select private.member_workspace_ids()))
  with check (workspace_id in (select private.member_workspace_ids()));
create policy topics_delete on public.topics for delete to authenticated
  using (workspace_id in (select private.member_workspace_ids()));

create policy topic_sessions_select on public.topic_sessions for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy topic_sessions_insert on public.topic_sessions for insert to authenticated
  with check (workspace_id in (select private.member_workspace_ids()));
create policy topic_sessions_update on public.topic_sessions for update to authenticated
  using (workspace_id in (select private.member_workspace_ids()))
  with check (workspace_id in (select private.member_workspace_ids()));

create policy topic_requests_select on public.topic_requests for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy topic_requests_insert on public.topic_requests for insert to authenticated
  with check (workspace_id in (select private.member_workspace_ids()) and submitted_by = (select auth.uid()));
-- Only a request nobody has started may be withdrawn (the contract's DELETE).
create policy topic_requests_delete on public.topic_requests for delete to authenticated
  using (workspace_id in (select private.member_workspace_ids()) and status = 'pending');

-- Members see the workspace's keys (name, prefix, last use); only admins create and revoke them.
create policy api_keys_select on public.api_keys for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy api_keys_insert on public.api_keys for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()) and created_by = (select auth.uid()));
create policy api_keys_update on public.api_keys for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids()))
  with check (workspace_id in (select private.admin_workspace_ids()));

create policy topic_queue_settings_select on public.topic_queue_settings for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy topic_queue_settings_insert on public.topic_queue_settings for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy topic_queue_settings_update on public.topic_queue_settings for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids()))
  with check (workspace_id in (select private.admin_workspace_ids()));

-- A finished request wakes the long polls waiting for it (GET /api/requests/{id}?wait=N), on commit.
create function private.topic_request_finished() returns trigger
language plpgsql set search_path = ''
as $$
begin
  perform pg_notify('mv_topic_requests', new.id::text);
  return null;
end $$;
revoke execute on function private.topic_request_finished() from public;

create trigger topic_request_finished after update of status on public.topic_requests
  for each row when (new.status in ('completed', 'failed') and old.status is distinct from new.status)
  execute function private.topic_request_finished();
