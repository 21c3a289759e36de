-- Replies come back (issue 21, item 2): a customer's SMS, WhatsApp or email lands in a conversation of
-- kind `customer`, one per customer (or per address, for a sender who is nobody's customer yet), where
-- the workspace's agents answer as in chat; their answer to the customer is the `customer_reply`
-- action, which autonomy proposes, runs or refuses (docs/replies.md).

-- A conversation with a customer, and the customer's messages in it ---------------------------------
alter table public.conversations drop constraint conversations_kind_check,
  add constraint conversations_kind_check check (kind in ('channel', 'dm', 'thread', 'delegation', 'customer'));

-- A customer's message is written by neither a person of the workspace nor an agent: both ids stay null.
alter table public.messages drop constraint messages_author_kind_check,
  add constraint messages_author_kind_check check (author_kind in ('person', 'agent', 'customer'));
alter table public.messages drop constraint messages_check,
  add constraint messages_check check (
    author_kind = 'person' and author_agent_id is null
    or author_kind = 'agent' and author_user_id is null
    or author_kind = 'customer' and author_user_id is null and author_agent_id is null);

-- A provider retries a webhook it did not see answered: its message id lands once.
create unique index messages_inbound_external_key on public.messages (workspace_id, (payload #>> '{inbound,externalId}'))
  where author_kind = 'customer';

-- Who the customer conversation is with, and where a reply goes. `customer_id` null: a sender who is
-- nobody's customer (docs/replies.md, "Unknown senders"); the row is then keyed by the address. `phone`
-- is E.164 (+393331234567), `email` lower case; `channel` is the channel of the latest inbound message,
-- the one a reply takes. `opted_out_at`: the sender wrote STOP (or an Italian equivalent); nothing but
-- the one confirmation goes to them after it (`stop_confirmation_id`, the outbox row the send worker
-- lets through although consent is gone).
create table public.customer_conversations (
  conversation_id uuid primary key,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  customer_id uuid,
  phone text check (phone ~ '^\+[0-9]{6,15}$'),
  email text check (email ~ '^[^@\s]+@[^@\s]+$' and email = lower(email)),
  channel text not null check (channel in ('sms', 'email', 'whatsapp')),
  opted_out_at timestamptz,
  stop_confirmation_id uuid references public.outbox_messages (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (phone is not null or email is not null),
  foreign key (conversation_id, workspace_id) references public.conversations (id, workspace_id) on delete cascade,
  foreign key (workspace_id, customer_id) references public.customers (workspace_id, id) on delete cascade
);
create unique index customer_conversations_customer_key on public.customer_conversations (workspace_id, customer_id) where customer_id is not null;
create unique index customer_conversations_phone_key on public.customer_conversations (workspace_id, phone) where customer_id is null and phone is not null;
create index customer_conversations_stop_confirmation_idx on public.customer_conversations (stop_confirmation_id) where stop_confirmation_id is not null;
create unique index customer_conversations_email_key on public.customer_conversations (workspace_id, email) where customer_id is null and email is not null;

-- Members read them (as they read customers); only the server writes them (lib/inbound).
revoke all on table public.customer_conversations from anon, authenticated;
grant select on public.customer_conversations to authenticated;
alter table public.customer_conversations enable row level security;
create policy customer_conversations_select on public.customer_conversations for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));

-- Every member of the workspace reads its customer conversations, as every member reads its customers.
create or replace function private.visible_conversation_ids() returns setof uuid
language sql stable security definer set search_path = ''
as $$
  with recursive visible (id) as (
    select c.id from public.conversations c
     where c.workspace_id in (select private.member_workspace_ids())
       and c.kind <> 'thread'
       and (c.visibility = 'public'
            or c.kind = 'customer'
            or exists (select 1 from public.conversation_members m where m.conversation_id = c.id and m.user_id = (select auth.uid())))
    union
    select t.id from public.conversations t join visible v on t.parent_conversation_id = v.id
     where t.kind = 'thread'
  )
  select id from visible
$$;

-- Only an inbound message opens a customer conversation: a person may not make one up.
create policy conversations_insert_not_customer on public.conversations as restrictive for insert to authenticated
  with check (kind <> 'customer');

-- The reply action -----------------------------------------------------------------------------------
alter table public.agent_decisions drop constraint agent_decisions_action_type_check,
  add constraint agent_decisions_action_type_check
    check (action_type in ('booking_reminder', 'waitlist_offer', 'win_back', 'deal_follow_up', 'customer_reply'));
alter table public.workspace_action_autonomy drop constraint workspace_action_autonomy_action_type_check,
  add constraint workspace_action_autonomy_action_type_check
    check (action_type in ('booking_reminder', 'waitlist_offer', 'win_back', 'deal_follow_up', 'customer_reply'));

-- Inbound email ----------------------------------------------------------------------------------------
-- Per workspace: the token of its reply-to address (reply+<address_token>@<INBOUND_EMAIL_DOMAIN>, which
-- every customer sees) and the hash of the secret in the URL its mail provider posts to (which nobody
-- but the owner's provider knows). Service only.
create table private.inbound_email (
  workspace_id uuid primary key references public.workspaces (id) on delete cascade,
  address_token text not null unique check (address_token ~ '^[a-z0-9]{12,40}$'),
  secret_hash text unique check (secret_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now()
);
revoke all on table private.inbound_email from anon, authenticated;
alter table private.inbound_email enable row level security;
