-- Channels behind the outbox (docs/messages.md): each workspace connects its own email (SMTP) and
-- SMS / WhatsApp (Twilio) accounts, and the due-message pass hands every message to its channel's
-- provider under the one lease primitive (lib/queue).

-- Channel settings ------------------------------------------------------------------------------------

-- One row per workspace. The SMTP password and the Twilio auth token are sealed by lib/secrets (AES-256-GCM
-- under a key the database never holds, bound to `smtp_password:<workspace>` / `twilio_auth_token:<workspace>`);
-- nobody reads them through a grant: people see only whether one is set (`*_set`).
create table public.workspace_channels (
  workspace_id uuid primary key references public.workspaces (id) on delete cascade,
  smtp_host text check (length(smtp_host) between 1 and 255),
  smtp_port integer check (smtp_port between 1 and 65535),
  -- true: TLS from the first byte (port 465); false: STARTTLS when the server offers it.
  smtp_secure boolean not null default false,
  smtp_user text check (length(smtp_user) <= 320),
  smtp_password_sealed text check (length(smtp_password_sealed) <= 2000),
  smtp_from text check (length(smtp_from) between 3 and 320),
  smtp_reply_to text check (length(smtp_reply_to) between 3 and 320),
  twilio_account_sid text check (twilio_account_sid ~ '^AC[0-9a-fA-F]{32}$'),
  twilio_auth_token_sealed text check (length(twilio_auth_token_sealed) <= 2000),
  twilio_sms_from text check (length(twilio_sms_from) between 3 and 64),
  twilio_whatsapp_from text check (length(twilio_whatsapp_from) between 3 and 64),
  -- Messages the workspace hands to providers per day of its own time zone; the rest wait for the next day.
  daily_cap integer not null default 200 check (daily_cap between 1 and 10000),
  smtp_password_set boolean generated always as (smtp_password_sealed is not null) stored,
  twilio_auth_token_set boolean generated always as (twilio_auth_token_sealed is not null) stored,
  updated_by uuid references auth.users (id) on delete set null,
  updated_at timestamptz not null default now(),
  -- Email is connected with at least a host and a sender; SMS / WhatsApp with an account, its token and a sender.
  check (smtp_host is null or smtp_from is not null),
  check (twilio_account_sid is null or twilio_auth_token_sealed is not null)
);
create index workspace_channels_updated_by_idx on public.workspace_channels (updated_by);

create trigger workspace_channels_touch before update on public.workspace_channels
  for each row execute function private.touch_updated_at();

revoke all on table public.workspace_channels from anon, authenticated;
grant select (workspace_id, smtp_host, smtp_port, smtp_secure, smtp_user, smtp_from, smtp_reply_to, twilio_account_sid,
              twilio_sms_from, twilio_whatsapp_from, daily_cap, smtp_password_set, twilio_auth_token_set, updated_by, updated_at)
  on public.workspace_channels to authenticated;
-- The sealed columns are written, never read back: the settings form seals a new password before it writes.
grant insert (workspace_id, smtp_host, smtp_port, smtp_secure, smtp_user, smtp_password_sealed, smtp_from, smtp_reply_to,
              twilio_account_sid, twilio_auth_token_sealed, twilio_sms_from, twilio_whatsapp_from, daily_cap, updated_by)
  on public.workspace_channels to authenticated;
grant update (smtp_host, smtp_port, smtp_secure, smtp_user, smtp_password_sealed, smtp_from, smtp_reply_to,
              twilio_account_sid, twilio_auth_token_sealed, twilio_sms_from, twilio_whatsapp_from, daily_cap, updated_by)
  on public.workspace_channels to authenticated;

alter table public.workspace_channels enable row level security;
-- Members see which channels are connected (Home says "connect email or SMS" to them too); owners and admins change them.
create policy workspace_channels_select on public.workspace_channels for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy workspace_channels_insert on public.workspace_channels for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()) and updated_by = (select auth.uid()));
create policy workspace_channels_update on public.workspace_channels for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids()))
  with check (workspace_id in (select private.admin_workspace_ids()) and updated_by = (select auth.uid()));

-- Outbox: providers and delivery states ------------------------------------------------------------

-- queued → sending → sent → delivered, or failed (the provider refused it, or retries ran out, or the outcome
-- of a hand-off is unknown after a crash), or undeliverable (the provider took it and then reported it could
-- not reach the person); cancelled while still queued. `error` is the reason, in the provider's words.
alter table public.outbox_messages
  drop constraint outbox_messages_status_check,
  add column provider text check (provider in ('smtp', 'twilio')),
  -- The provider's id of the message (the email's Message-ID, the Twilio SID): stored before the state moves
  -- past `sending`, and for email before the hand-off begins, so a message the provider took is never sent twice.
  add column provider_message_id text check (length(provider_message_id) between 1 and 998),
  -- Hand-offs tried (each claim of the due-message pass counts one).
  add column attempts integer not null default 0 check (attempts >= 0),
  -- A transient failure's retry time (exponential backoff), or the next day when the daily cap is reached.
  add column next_attempt_at timestamptz,
  add column sending_at timestamptz,
  -- Set while a hand-off to the provider is under way, cleared with its outcome. Found set by a later claim,
  -- the holder died mid-send: whether the provider took the message is unknown, so it is not sent again.
  add column handing_at timestamptz,
  add column failed_at timestamptz,
  add column lease_owner text,
  add column lease_worker uuid,
  add column lease_expires_at timestamptz;

update public.outbox_messages set failed_at = coalesce(sent_at, send_after) where status = 'failed';

alter table public.outbox_messages
  add constraint outbox_messages_status_check
    check (status in ('queued', 'sending', 'sent', 'delivered', 'failed', 'undeliverable', 'cancelled')),
  add constraint outbox_messages_failed_at_check check ((status in ('failed', 'undeliverable')) = (failed_at is not null)),
  add constraint outbox_messages_sending_at_check check (status <> 'sending' or sending_at is not null),
  add constraint outbox_messages_sent_provider_check check (status not in ('sent', 'delivered', 'undeliverable') or provider is not null);

-- A message reported undeliverable or failed after it left keeps its sent_at: sent and delivered need one,
-- the other states may have one.
alter table public.outbox_messages
  drop constraint outbox_messages_sent_at_check,
  add constraint outbox_messages_sent_at_check check (status not in ('sent', 'delivered') or sent_at is not null);

-- Status callbacks find their message by the provider's id.
create unique index outbox_messages_provider_id_idx on public.outbox_messages (provider, provider_message_id)
  where provider_message_id is not null;
-- The due pass: queued rows by their next time, and the hand-offs under way.
drop index public.outbox_messages_due_idx;
create index outbox_messages_due_idx on public.outbox_messages (coalesce(next_attempt_at, send_after)) where status = 'queued';
create index outbox_messages_sending_idx on public.outbox_messages (lease_expires_at) where status = 'sending';
-- The daily cap counts the workspace's hand-offs of the day.
create index outbox_messages_sending_at_idx on public.outbox_messages (workspace_id, sending_at) where sending_at is not null;
