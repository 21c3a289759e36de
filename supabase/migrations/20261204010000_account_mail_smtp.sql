-- Account mail (invitations, password resets, quota warnings) leaves through the install's SMTP when one is
-- set (docs/messages.md, "Account mail"). private.email_outbox, the dev mailbox's table, becomes its queue:
-- the same lease columns as every queue (lib/queue) and the same never-twice rule as the customer outbox.
-- The table stays in private: RLS on, no policy, no grant to any API role; only the service reads it.
--
-- kept: written where the install has no SMTP; only the dev mailbox shows it, nothing sends it (every row
--       written before this migration, too: none of them was sent, and none is sent now).
-- queued → sending → sent, or failed (the server refused it for good, retries ran out, or the outcome of a
--       hand-off is unknown after a crash). Between attempts a row is queued with the last reason in `error`.
alter table private.email_outbox
  add column locale text not null default 'en' check (locale in ('en', 'it')),
  -- The words of the link's button in the HTML part and its line in the plain part.
  add column link_label text check (length(link_label) <= 200),
  add column status text not null default 'kept' check (status in ('kept', 'queued', 'sending', 'sent', 'failed')),
  add column attempts integer not null default 0 check (attempts >= 0),
  add column next_attempt_at timestamptz,
  add column sending_at timestamptz,
  -- Set in a commit of its own before the SMTP server is called, with the Message-ID; cleared with the outcome.
  -- Found set by a later claim, the sender died mid-send: whether the server took the mail is unknown, so it
  -- is not sent again.
  add column handing_at timestamptz,
  add column message_id text check (length(message_id) between 1 and 998),
  add column sent_at timestamptz,
  add column failed_at timestamptz,
  add column error text check (length(error) <= 1000),
  add column lease_owner text,
  add column lease_worker uuid,
  add column lease_expires_at timestamptz,
  add constraint email_outbox_sent_check check (status <> 'sent' or (sent_at is not null and message_id is not null)),
  add constraint email_outbox_failed_check check ((status = 'failed') = (failed_at is not null)),
  add constraint email_outbox_sending_check check (status <> 'sending' or sending_at is not null);

create index email_outbox_due_idx on private.email_outbox (coalesce(next_attempt_at, created_at)) where status = 'queued';
create index email_outbox_sending_idx on private.email_outbox (lease_expires_at) where status = 'sending';

revoke all on table private.email_outbox from anon, authenticated;
