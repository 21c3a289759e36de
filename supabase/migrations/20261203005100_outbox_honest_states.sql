-- The outbox says only what happened. A message lives queued → sending → sent → delivered, or failed,
-- or is cancelled while still queued. Only a provider moves it past `queued` (lib/actions/outbox.ts):
-- `sending` while it hands the message on, `sent` once the provider took it, `delivered` once the
-- provider reports it arrived, `failed` when it could not be sent. No SMS or email provider is
-- connected yet, so messages stay `queued`.
alter table public.outbox_messages
  drop constraint outbox_messages_status_check,
  drop constraint outbox_messages_check,
  add column delivered_at timestamptz;

-- Until now a background function marked a due message `sent` although no provider existed: none of
-- those messages left. They are queued again, which is what they are.
update public.outbox_messages set status = 'queued', sent_at = null where status = 'sent';

alter table public.outbox_messages
  add constraint outbox_messages_status_check check (status in ('queued', 'sending', 'sent', 'delivered', 'failed', 'cancelled')),
  add constraint outbox_messages_sent_at_check check ((status in ('sent', 'delivered')) = (sent_at is not null)),
  add constraint outbox_messages_delivered_at_check check ((status = 'delivered') = (delivered_at is not null));
