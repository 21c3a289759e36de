-- Conversations between people and agents: agents (owned by a person, shown in their workspaces),
-- agent credentials and presence, conversations (channels, DMs, side threads, delegations), members,
-- messages, reactions, read state, and the deliveries queue that hands messages to agents.
--
-- Why agents live in `private`: an agent belongs to a person and appears in several workspaces, but
-- every public row must belong to exactly one workspace (RLS: members of that workspace see it,
-- nobody else does). So the agent itself is private, `public.workspace_agents` says where it appears,
-- and coworkers read the agents of their workspaces through `private.visible_agents()`.

-- Agents ---------------------------------------------------------------------------------------------
create table private.agents (
  id uuid primary key default gen_random_uuid(),
  owner_user_id uuid not null references auth.users (id) on delete cascade,
  -- Used in `@Name` mentions and `<dm target="Name">`: no characters those syntaxes reserve.
  name text not null check (length(name) between 1 and 40 and name = btrim(name) and name !~ '[@<>",\r\n\t]'),
  role text not null default '' check (length(role) <= 80),
  -- Lower-case domains the agent declares ("bookkeeping", "instagram"); none means a generalist.
  capabilities text[] not null default '{}' check (cardinality(capabilities) <= 20),
  backend text not null default 'claude-code' check (backend in ('anthropic', 'claude-code', 'openai', 'codex', 'offline')),
  model text check (length(model) between 1 and 100),
  runtime text not null default 'hosted' check (runtime in ('hosted', 'local')),
  -- 'everywhere': every workspace its owner belongs to, now and later; 'pinned': only the chosen ones.
  visibility text not null default 'everywhere' check (visibility in ('everywhere', 'pinned')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index agents_owner_name_key on private.agents (owner_user_id, lower(name));

-- Where each agent appears. Rows follow the agent's visibility and its owner's memberships.
create table public.workspace_agents (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  agent_id uuid not null references private.agents (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (workspace_id, agent_id)
);
create index workspace_agents_agent_idx on public.workspace_agents (agent_id);

-- Long-lived agent keys ('key') and the narrower host tokens of hosted runners ('host'): both are only
-- ever exchanged for a 15-minute session token. Only the hash is stored.
create table private.agent_api_keys (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid not null references private.agents (id) on delete cascade,
  kind text not null check (kind in ('key', 'host')),
  prefix text not null,
  key_hash text not null unique,
  label text not null default '' check (length(label) <= 80),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  -- Keys do not expire; host tokens always do.
  expires_at timestamptz check ((kind = 'host') = (expires_at is not null)),
  revoked_at timestamptz,
  last_used_at timestamptz
);
create index agent_api_keys_agent_idx on private.agent_api_keys (agent_id, created_at);
create index agent_api_keys_created_by_idx on private.agent_api_keys (created_by);

-- Presence: one row per live connection of an agent, refreshed by heartbeats.
create table private.agent_connections (
  agent_id uuid not null references private.agents (id) on delete cascade,
  connection_id text not null check (length(connection_id) between 1 and 100),
  connected_at timestamptz not null default now(),
  last_heartbeat_at timestamptz not null default now(),
  primary key (agent_id, connection_id)
);

-- An owner joining a workspace brings their 'everywhere' agents along; leaving takes all theirs away
-- (and, through the foreign keys below, their memberships and queued deliveries there).
create function private.on_member_joined_share_agents() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.workspace_agents (workspace_id, agent_id)
  select new.workspace_id, a.id from private.agents a
   where a.owner_user_id = new.user_id and a.visibility = 'everywhere'
  on conflict do nothing;
  return new;
end $$;

create function private.on_member_left_unshare_agents() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  delete from public.workspace_agents wa using private.agents a
   where wa.agent_id = a.id and a.owner_user_id = old.user_id and wa.workspace_id = old.workspace_id;
  return old;
end $$;

create trigger share_agents_on_join after insert on public.workspace_members
  for each row execute function private.on_member_joined_share_agents();
create trigger unshare_agents_on_leave after delete on public.workspace_members
  for each row execute function private.on_member_left_unshare_agents();
revoke execute on function private.on_member_joined_share_agents() from public;
revoke execute on function private.on_member_left_unshare_agents() from public;

-- Conversations ----------------------------------------------------------------------------------------
create table public.conversations (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  kind text not null check (kind in ('channel', 'dm', 'thread', 'delegation')),
  name text check (length(name) between 1 and 80),
  visibility text not null default 'private' check (visibility in ('public', 'private')),
  -- Threads and delegations come from a conversation (and a message in it).
  parent_conversation_id uuid,
  parent_message_id uuid,
  -- Side threads only: open until a participant resolves it or it stalls.
  status text check (status in ('open', 'resolved', 'abandoned')),
  status_changed_at timestamptz,
  resolution_message_id uuid,
  -- Loop guard: consecutive agent messages since a person last wrote; at the limit agents pause.
  agent_streak integer not null default 0,
  agents_paused boolean not null default false,
  last_message_seq bigint,
  last_message_at timestamptz,
  created_by_user_id uuid references auth.users (id) on delete set null,
  created_by_agent_id uuid references private.agents (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, workspace_id),
  foreign key (parent_conversation_id, workspace_id) references public.conversations (id, workspace_id) on delete cascade,
  check (kind <> 'channel' or name is not null),
  check (visibility = 'private' or kind = 'channel'),
  check ((kind = 'thread') = (status is not null)),
  check (kind <> 'thread' or parent_conversation_id is not null)
);
create index conversations_workspace_idx on public.conversations (workspace_id, last_message_at desc);
create index conversations_parent_idx on public.conversations (parent_conversation_id, workspace_id) where parent_conversation_id is not null;
create index conversations_parent_message_idx on public.conversations (parent_message_id) where parent_message_id is not null;
create index conversations_resolution_message_idx on public.conversations (resolution_message_id) where resolution_message_id is not null;
create index conversations_created_by_user_idx on public.conversations (created_by_user_id);
create index conversations_created_by_agent_idx on public.conversations (created_by_agent_id);
create index conversations_open_threads_idx on public.conversations (last_message_at) where status = 'open';
create unique index conversations_channel_name_key on public.conversations (workspace_id, lower(name)) where kind = 'channel';

-- A member is a person of the workspace or an agent shown in it; leaving the workspace (or the
-- agent being unpinned from it) removes the membership.
create table public.conversation_members (
  id uuid primary key default gen_random_uuid(),
  -- Join order (several members join in one statement): the fixed fallback order of turns.
  seq bigint generated always as identity,
  workspace_id uuid not null,
  conversation_id uuid not null,
  user_id uuid,
  agent_id uuid,
  -- Read state (people): the last message seq they have seen.
  last_read_seq bigint not null default 0,
  -- An agent that said it is done is not woken by agents' messages until a person writes again.
  done_at timestamptz,
  created_at timestamptz not null default now(),
  check (num_nonnulls(user_id, agent_id) = 1),
  foreign key (conversation_id, workspace_id) references public.conversations (id, workspace_id) on delete cascade,
  foreign key (workspace_id, user_id) references public.workspace_members (workspace_id, user_id) on delete cascade,
  foreign key (workspace_id, agent_id) references public.workspace_agents (workspace_id, agent_id) on delete cascade,
  unique (conversation_id, user_id),
  unique (conversation_id, agent_id)
);
create index conversation_members_workspace_user_idx on public.conversation_members (workspace_id, user_id);
create index conversation_members_workspace_agent_idx on public.conversation_members (workspace_id, agent_id);
create index conversation_members_user_idx on public.conversation_members (user_id, conversation_id) where user_id is not null;

create table public.messages (
  id uuid primary key default gen_random_uuid(),
  -- The order of a conversation. Sends to one conversation are serialised (its row is locked), so
  -- seq order is commit order there and a cursor on it never skips a message.
  seq bigint generated always as identity unique,
  workspace_id uuid not null,
  conversation_id uuid not null,
  author_kind text not null check (author_kind in ('person', 'agent')),
  author_user_id uuid references auth.users (id) on delete set null,
  author_agent_id uuid references private.agents (id) on delete set null,
  -- The name at the time of writing: history keeps reading right after renames and unpinning.
  author_name text not null,
  body text not null check (length(body) <= 20000),
  -- [{type: 'agent' | 'person', id, name}] in order of appearance.
  mentions jsonb not null default '[]'::jsonb,
  -- Structured extras: {sideThreads: [conversationId]}, {resolvesThread: conversationId}, later cards.
  payload jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  edited_at timestamptz,
  deleted_at timestamptz,
  unique (id, conversation_id),
  foreign key (conversation_id, workspace_id) references public.conversations (id, workspace_id) on delete cascade,
  check (author_kind = 'person' and author_agent_id is null or author_kind = 'agent' and author_user_id is null)
);
create index messages_conversation_seq_idx on public.messages (conversation_id, seq);
create index messages_workspace_idx on public.messages (workspace_id);
create index messages_author_user_idx on public.messages (author_user_id);
create index messages_author_agent_idx on public.messages (author_agent_id);

alter table public.conversations
  add foreign key (parent_message_id) references public.messages (id) on delete set null,
  add foreign key (resolution_message_id) references public.messages (id) on delete set null;

create table public.message_reactions (
  workspace_id uuid not null,
  conversation_id uuid not null,
  message_id uuid not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  emoji text not null check (length(emoji) between 1 and 32 and emoji !~ '\s'),
  created_at timestamptz not null default now(),
  primary key (message_id, user_id, emoji),
  foreign key (message_id, conversation_id) references public.messages (id, conversation_id) on delete cascade,
  foreign key (conversation_id, workspace_id) references public.conversations (id, workspace_id) on delete cascade
);
create index message_reactions_workspace_idx on public.message_reactions (workspace_id);
create index message_reactions_conversation_idx on public.message_reactions (conversation_id, workspace_id);
create index message_reactions_user_idx on public.message_reactions (user_id);

-- Deliveries: the queue of messages to agents ---------------------------------------------------------
-- Claimed with the one pattern (UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING) under
-- a lease; an expired lease makes the row claimable again. 'waiting' rows are later turns of the same
-- message: they become 'pending' only if every earlier turn passed.
create table private.deliveries (
  id uuid primary key default gen_random_uuid(),
  seq bigint generated always as identity,
  workspace_id uuid not null,
  agent_id uuid not null,
  conversation_id uuid not null,
  message_id uuid not null references public.messages (id) on delete cascade,
  turn integer not null default 0,
  status text not null default 'pending' check (status in ('waiting', 'pending', 'claimed', 'done', 'skipped')),
  outcome text check (outcome in ('replied', 'passed')),
  lease_owner text,
  lease_expires_at timestamptz,
  attempts integer not null default 0,
  claimed_at timestamptz,
  handled_at timestamptz,
  created_at timestamptz not null default now(),
  unique (message_id, agent_id),
  foreign key (workspace_id, agent_id) references public.workspace_agents (workspace_id, agent_id) on delete cascade
);
-- The claim scans an agent's unfinished rows oldest first, and checks each against earlier unfinished
-- rows of the same conversation (one message at a time per conversation).
create index deliveries_claim_idx on private.deliveries (agent_id, seq) where status in ('pending', 'claimed');
create index deliveries_conversation_idx on private.deliveries (agent_id, conversation_id, seq) where status in ('pending', 'claimed');
create index deliveries_workspace_agent_idx on private.deliveries (workspace_id, agent_id);
create index deliveries_waiting_conversation_idx on private.deliveries (conversation_id) where status in ('waiting', 'pending');

-- Visibility helpers -----------------------------------------------------------------------------------
-- Conversations the caller may read: public channels of their workspaces, the ones they are a member
-- of, and side threads of any of those (the card under a message expands for whoever sees the
-- message). Security definer so conversation and member policies do not recurse into each other.
create function private.visible_conversation_ids() returns setof uuid
language sql stable security definer set search_path = ''
as $$
  with recursive visible (id) as (
    select c.id from public.conversations c
     where c.workspace_id in (select private.member_workspace_ids())
       and c.kind <> 'thread'
       and (c.visibility = 'public'
            or exists (select 1 from public.conversation_members m where m.conversation_id = c.id and m.user_id = (select auth.uid())))
    union
    select t.id from public.conversations t join visible v on t.parent_conversation_id = v.id
     where t.kind = 'thread'
  )
  select id from visible
$$;

-- The agents shown in the caller's workspaces, plus their own: what a coworker may know of an agent.
create function private.visible_agents()
returns table (
  id uuid, owner_user_id uuid, name text, role text, capabilities text[], backend text, model text,
  runtime text, visibility text, last_seen_at timestamptz, created_at timestamptz
)
language sql stable security definer set search_path = ''
as $$
  select a.id, a.owner_user_id, a.name, a.role, a.capabilities, a.backend, a.model, a.runtime, a.visibility,
         (select max(k.last_heartbeat_at) from private.agent_connections k where k.agent_id = a.id), a.created_at
    from private.agents a
   where a.owner_user_id = (select auth.uid())
      or a.id in (select wa.agent_id from public.workspace_agents wa
                   where wa.workspace_id in (select private.member_workspace_ids()))
$$;

revoke execute on function private.visible_conversation_ids() from public;
revoke execute on function private.visible_agents() from public;
grant execute on function private.visible_conversation_ids() to authenticated;
grant execute on function private.visible_agents() to authenticated;

-- Privileges --------------------------------------------------------------------------------------------
-- Conversations, members and messages are written only by the one send path (lib/chat, in the
-- caller's transaction after an RLS-checked read), so no second, delivery-less path exists. People
-- write directly only what is theirs: their reactions, their read marker, edits of their own messages.
revoke all on table private.agents, private.agent_api_keys, private.agent_connections, private.deliveries
  from anon, authenticated;
revoke all on table public.workspace_agents, public.conversations, public.conversation_members,
  public.messages, public.message_reactions from anon, authenticated;

grant select on public.workspace_agents to authenticated;
grant select on public.conversations to authenticated;
grant select on public.conversation_members to authenticated;
grant update (last_read_seq) on public.conversation_members to authenticated;
grant select on public.messages to authenticated;
grant update (body, mentions, edited_at, deleted_at) on public.messages to authenticated;
grant select, insert, delete on public.message_reactions to authenticated;

alter table public.workspace_agents enable row level security;
alter table public.conversations enable row level security;
alter table public.conversation_members enable row level security;
alter table public.messages enable row level security;
alter table public.message_reactions enable row level security;

create policy workspace_agents_select on public.workspace_agents for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));

create policy conversations_select on public.conversations for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()) and id in (select private.visible_conversation_ids()));

create policy conversation_members_select on public.conversation_members for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()) and conversation_id in (select private.visible_conversation_ids()));
create policy conversation_members_update on public.conversation_members for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy messages_select on public.messages for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()) and conversation_id in (select private.visible_conversation_ids()));
create policy messages_update on public.messages for update to authenticated
  using (author_user_id = (select auth.uid()) and conversation_id in (select private.visible_conversation_ids()))
  with check (author_user_id = (select auth.uid()));

create policy message_reactions_select on public.message_reactions for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()) and conversation_id in (select private.visible_conversation_ids()));
create policy message_reactions_insert on public.message_reactions for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and workspace_id in (select private.member_workspace_ids())
    and conversation_id in (select private.visible_conversation_ids())
  );
create policy message_reactions_delete on public.message_reactions for delete to authenticated
  using (user_id = (select auth.uid()));
