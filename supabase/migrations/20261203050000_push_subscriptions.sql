-- Web Push: one row per person and device (a browser's push subscription), for "Approve from the lock
-- screen" (docs/notifications.md). Scoped by person like public.onboarding and private to them: nobody
-- else reads, changes or removes a person's devices. The service reads them to send a push and deletes
-- the ones the push service reports gone (404/410).

create table public.push_subscriptions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  -- The push service's URL for this device. A device has one subscription, so one person at a time:
  -- whoever subscribes it last (the server moves it; lib/push).
  endpoint text not null unique check (length(endpoint) between 12 and 2048),
  -- The browser's P-256 public key (65 bytes) and auth secret (16 bytes), base64url: RFC 8291.
  p256dh text not null check (p256dh ~ '^[A-Za-z0-9_-]{87}$'),
  auth text not null check (auth ~ '^[A-Za-z0-9_-]{22}$'),
  -- The language the notification is written in: the interface's on this device when it subscribed.
  locale text not null default 'en' check (locale in ('en', 'it')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index push_subscriptions_user_idx on public.push_subscriptions (user_id);

revoke all on table public.push_subscriptions from anon, authenticated;
grant select, delete on public.push_subscriptions to authenticated;
grant insert (user_id, endpoint, p256dh, auth, locale) on public.push_subscriptions to authenticated;
grant update (p256dh, auth, locale, updated_at) on public.push_subscriptions to authenticated;

alter table public.push_subscriptions enable row level security;

create policy push_subscriptions_select on public.push_subscriptions for select to authenticated
  using (user_id = (select auth.uid()));
create policy push_subscriptions_insert on public.push_subscriptions for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy push_subscriptions_update on public.push_subscriptions for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy push_subscriptions_delete on public.push_subscriptions for delete to authenticated
  using (user_id = (select auth.uid()));
