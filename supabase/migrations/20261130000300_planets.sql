-- Planets: the business data each planet reads. Booking (services, staff, opening hours, appointments,
-- waitlist), crm (customers, leads), sales (pipeline stages, deals), content / marketing / web (posts,
-- campaigns, daily site stats). Every table is scoped by workspace_id.
--
-- Cross-table references carry the workspace too — (workspace_id, customer_id) references
-- customers (workspace_id, id) — so a row can never point at another workspace's customer, service,
-- staff member or stage, even when written by a member who belongs to both workspaces.
--
-- Who writes what (see the grants at the end):
--   * members insert and update the operational tables the app edits: appointments, waitlist_entries,
--     customers, leads, deals; admins may also delete waitlist entries, customers, leads and deals;
--     appointments are never deleted (cancelled instead) so history and metrics stay true;
--   * admins write the configuration: services, staff, opening_hours, pipeline_stages;
--   * nobody but service code writes posts, campaigns and site_daily_stats (integrations and agents),
--     nor the columns service code owns: appointments.reminder_sent_at (the reminder flow's
--     exactly-once mark), waitlist_entries.notified_at, and the customers' visit statistics (kept by a
--     trigger from completed appointments).

-- Booking ------------------------------------------------------------------------------------------

create table public.services (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 120),
  category text not null default '' check (length(category) <= 60),
  duration_minutes integer not null check (duration_minutes between 5 and 1440),
  price_cents integer not null check (price_cents >= 0),
  created_at timestamptz not null default now(),
  unique (workspace_id, id)
);

create table public.staff (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 120),
  active boolean not null default true,
  created_at timestamptz not null default now(),
  unique (workspace_id, id)
);

-- A weekly template in the workspace's time zone; several rows per weekday make split shifts.
create table public.opening_hours (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  weekday smallint not null check (weekday between 1 and 7), -- ISO: 1 = Monday … 7 = Sunday
  opens time not null,
  closes time not null,
  created_at timestamptz not null default now(),
  check (closes > opens)
);
create index opening_hours_workspace_idx on public.opening_hours (workspace_id, weekday);

-- CRM ----------------------------------------------------------------------------------------------

create table public.customers (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 120),
  email text check (email ~ '^[^@\s]+@[^@\s]+$'),
  phone text check (length(phone) between 5 and 32),
  consent_marketing boolean not null default false,
  consent_messages boolean not null default false,
  vip boolean not null default false,
  -- Completed visits, kept by private.refresh_customer_visits(): the usual gap between visits is
  -- (last_visit_at - first_visit_at) / (visit_count - 1), readable without scanning appointments.
  visit_count integer not null default 0,
  first_visit_at timestamptz,
  last_visit_at timestamptz,
  created_at timestamptz not null default now(),
  unique (workspace_id, id)
);
create index customers_last_visit_idx on public.customers (workspace_id, last_visit_at);
create index customers_created_idx on public.customers (workspace_id, created_at);

create table public.leads (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 120),
  email text check (email ~ '^[^@\s]+@[^@\s]+$'),
  phone text check (length(phone) between 5 and 32),
  source text not null check (source in ('instagram', 'facebook', 'google', 'website', 'referral', 'walk_in', 'phone', 'other')),
  status text not null default 'new' check (status in ('new', 'contacted', 'converted', 'lost')),
  created_at timestamptz not null default now(),
  check (email is not null or phone is not null)
);
create index leads_created_idx on public.leads (workspace_id, created_at);

-- Appointments and waitlist ------------------------------------------------------------------------

create table public.appointments (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  customer_id uuid not null,
  service_id uuid not null,
  staff_id uuid not null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  status text not null default 'booked' check (status in ('booked', 'confirmed', 'completed', 'cancelled', 'no_show')),
  price_cents integer not null check (price_cents >= 0),
  created_at timestamptz not null default now(),
  cancelled_at timestamptz,
  -- Set once by the reminder flow when it sends the reminder: its exactly-once guard.
  reminder_sent_at timestamptz,
  check (ends_at > starts_at),
  check ((status = 'cancelled') = (cancelled_at is not null)),
  foreign key (workspace_id, customer_id) references public.customers (workspace_id, id) on delete cascade,
  -- Services and staff with history are retired, not deleted: these references refuse the delete.
  foreign key (workspace_id, service_id) references public.services (workspace_id, id),
  foreign key (workspace_id, staff_id) references public.staff (workspace_id, id)
);
-- Day / week / 30-day windows, and the same by status (no-shows, reminders due, completed revenue).
create index appointments_starts_idx on public.appointments (workspace_id, starts_at);
create index appointments_status_starts_idx on public.appointments (workspace_id, status, starts_at);
-- A customer's history and next booking (visit gaps, rebooking, lapsed customers); also the FK index.
-- created_at rides along so the rebooking check ("was the next visit booked within 24 h?") reads the
-- index alone.
create index appointments_customer_idx on public.appointments (workspace_id, customer_id, starts_at) include (created_at);
create index appointments_staff_idx on public.appointments (workspace_id, staff_id, starts_at);
create index appointments_service_idx on public.appointments (workspace_id, service_id);

create table public.waitlist_entries (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  customer_id uuid not null,
  service_id uuid not null,
  -- The customer takes any slot that fits inside this window.
  window_start timestamptz not null,
  window_end timestamptz not null,
  status text not null default 'waiting' check (status in ('waiting', 'offered', 'booked', 'expired')),
  created_at timestamptz not null default now(),
  notified_at timestamptz,
  check (window_end > window_start),
  foreign key (workspace_id, customer_id) references public.customers (workspace_id, id) on delete cascade,
  foreign key (workspace_id, service_id) references public.services (workspace_id, id) on delete cascade
);
-- Entries whose window covers a freed slot, first come first served.
create index waitlist_entries_open_idx on public.waitlist_entries (workspace_id, status, window_start);
create index waitlist_entries_customer_idx on public.waitlist_entries (workspace_id, customer_id);
create index waitlist_entries_service_idx on public.waitlist_entries (workspace_id, service_id);

-- Sales --------------------------------------------------------------------------------------------

create table public.pipeline_stages (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 80),
  position integer not null check (position >= 0),
  probability smallint not null check (probability between 0 and 100), -- percent chance to win from here
  created_at timestamptz not null default now(),
  unique (workspace_id, id)
);

create table public.deals (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  title text not null check (length(btrim(title)) between 1 and 160),
  customer_id uuid,
  owner_user_id uuid references auth.users (id) on delete set null,
  stage_id uuid not null,
  value_cents bigint not null check (value_cents >= 0),
  status text not null default 'open' check (status in ('open', 'won', 'lost')),
  last_activity_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  closed_at timestamptz,
  check ((status = 'open') = (closed_at is null)),
  foreign key (workspace_id, customer_id) references public.customers (workspace_id, id) on delete set null (customer_id),
  foreign key (workspace_id, stage_id) references public.pipeline_stages (workspace_id, id)
);
create index deals_status_activity_idx on public.deals (workspace_id, status, last_activity_at);
create index deals_closed_idx on public.deals (workspace_id, closed_at);
create index deals_customer_idx on public.deals (workspace_id, customer_id);
create index deals_stage_idx on public.deals (workspace_id, stage_id);
create index deals_owner_idx on public.deals (owner_user_id);

-- Content, marketing, web --------------------------------------------------------------------------

create table public.posts (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  channel text not null check (channel in ('instagram', 'facebook', 'tiktok', 'google_business', 'blog')),
  title text not null check (length(btrim(title)) between 1 and 200),
  status text not null default 'draft' check (status in ('draft', 'scheduled', 'published')),
  scheduled_at timestamptz,
  published_at timestamptz,
  reach integer not null default 0 check (reach >= 0),
  engagements integer not null default 0 check (engagements >= 0),
  created_at timestamptz not null default now(),
  check ((status = 'published') = (published_at is not null)),
  check (status <> 'scheduled' or scheduled_at is not null)
);
create index posts_published_idx on public.posts (workspace_id, published_at);

create table public.campaigns (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 160),
  channel text not null check (channel in ('email', 'sms', 'whatsapp')),
  status text not null default 'draft' check (status in ('draft', 'scheduled', 'sent')),
  scheduled_at timestamptz,
  sent_at timestamptz,
  recipients integer not null default 0 check (recipients >= 0),
  -- Opens are only measurable for email; other channels leave them at 0.
  opens integer not null default 0 check (opens >= 0),
  clicks integer not null default 0 check (clicks >= 0),
  conversions integer not null default 0 check (conversions >= 0),
  created_at timestamptz not null default now(),
  check ((status = 'sent') = (sent_at is not null))
);
create index campaigns_sent_idx on public.campaigns (workspace_id, sent_at);

-- One row per local day (the workspace's time zone), written by the site analytics import.
create table public.site_daily_stats (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  day date not null,
  visits integer not null default 0 check (visits >= 0),
  booking_page_visits integer not null default 0 check (booking_page_visits >= 0),
  conversions integer not null default 0 check (conversions >= 0),
  primary key (workspace_id, day)
);

-- Customer visit statistics --------------------------------------------------------------------------

-- Recomputes visit_count / first_visit_at / last_visit_at of the customers touched by a statement on
-- appointments, from their completed appointments. Statement-level with transition tables, so a bulk
-- insert costs one pass, not one per row. Definer: the statistics are not writable by members, and the
-- only customers touched are those of rows the statement was allowed to change.
create function private.refresh_customer_visits() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_ids uuid[];
begin
  if tg_op = 'INSERT' then
    select array_agg(distinct customer_id) into v_ids from new_rows;
  elsif tg_op = 'UPDATE' then
    select array_agg(distinct customer_id) into v_ids
    from (select customer_id from new_rows union select customer_id from old_rows) r;
  else
    select array_agg(distinct customer_id) into v_ids from old_rows;
  end if;

  update public.customers c
     set visit_count = s.visits, first_visit_at = s.first_at, last_visit_at = s.last_at
    from public.customers k
    cross join lateral (
      select count(*)::int as visits, min(a.starts_at) as first_at, max(a.starts_at) as last_at
        from public.appointments a
       where a.workspace_id = k.workspace_id and a.customer_id = k.id and a.status = 'completed'
    ) s
   where k.id = any (v_ids) and c.id = k.id
     and (c.visit_count, c.first_visit_at, c.last_visit_at) is distinct from (s.visits, s.first_at, s.last_at);
  return null;
end $$;
revoke execute on function private.refresh_customer_visits() from public;

-- Transition tables allow one event per trigger, hence three.
create trigger appointments_visits_insert after insert on public.appointments
  referencing new table as new_rows for each statement execute function private.refresh_customer_visits();
create trigger appointments_visits_update after update on public.appointments
  referencing new table as new_rows old table as old_rows for each statement execute function private.refresh_customer_visits();
create trigger appointments_visits_delete after delete on public.appointments
  referencing old table as old_rows for each statement execute function private.refresh_customer_visits();

-- Privileges ---------------------------------------------------------------------------------------
-- Nothing by default, then what members and admins need; RLS decides which rows. Column lists keep
-- ids, workspace moves, creation times and service-owned columns out of users' hands.

revoke all on table
  public.services, public.staff, public.opening_hours, public.customers, public.leads, public.appointments,
  public.waitlist_entries, public.pipeline_stages, public.deals, public.posts, public.campaigns, public.site_daily_stats
  from anon, authenticated;

grant select on
  public.services, public.staff, public.opening_hours, public.customers, public.leads, public.appointments,
  public.waitlist_entries, public.pipeline_stages, public.deals, public.posts, public.campaigns, public.site_daily_stats
  to authenticated;

-- Operational tables: members.
grant insert (workspace_id, customer_id, service_id, staff_id, starts_at, ends_at, status, price_cents, cancelled_at)
  on public.appointments to authenticated;
grant update (customer_id, service_id, staff_id, starts_at, ends_at, status, price_cents, cancelled_at)
  on public.appointments to authenticated;
grant insert (workspace_id, customer_id, service_id, window_start, window_end, status) on public.waitlist_entries to authenticated;
grant update (window_start, window_end, status) on public.waitlist_entries to authenticated;
grant insert (workspace_id, name, email, phone, consent_marketing, consent_messages, vip) on public.customers to authenticated;
grant update (name, email, phone, consent_marketing, consent_messages, vip) on public.customers to authenticated;
grant insert (workspace_id, name, email, phone, source, status) on public.leads to authenticated;
grant update (name, email, phone, source, status) on public.leads to authenticated;
grant insert (workspace_id, title, customer_id, owner_user_id, stage_id, value_cents, status, last_activity_at, closed_at)
  on public.deals to authenticated;
grant update (title, customer_id, owner_user_id, stage_id, value_cents, status, last_activity_at, closed_at)
  on public.deals to authenticated;
grant delete on public.waitlist_entries, public.customers, public.leads, public.deals to authenticated;

-- Configuration: admins (the policies below say who).
grant insert (workspace_id, name, category, duration_minutes, price_cents) on public.services to authenticated;
grant update (name, category, duration_minutes, price_cents) on public.services to authenticated;
grant insert (workspace_id, name, active) on public.staff to authenticated;
grant update (name, active) on public.staff to authenticated;
grant insert (workspace_id, weekday, opens, closes) on public.opening_hours to authenticated;
grant update (weekday, opens, closes) on public.opening_hours to authenticated;
grant insert (workspace_id, name, position, probability) on public.pipeline_stages to authenticated;
grant update (name, position, probability) on public.pipeline_stages to authenticated;
grant delete on public.services, public.staff, public.opening_hours, public.pipeline_stages to authenticated;

alter table public.services enable row level security;
alter table public.staff enable row level security;
alter table public.opening_hours enable row level security;
alter table public.customers enable row level security;
alter table public.leads enable row level security;
alter table public.appointments enable row level security;
alter table public.waitlist_entries enable row level security;
alter table public.pipeline_stages enable row level security;
alter table public.deals enable row level security;
alter table public.posts enable row level security;
alter table public.campaigns enable row level security;
alter table public.site_daily_stats enable row level security;

-- Members read everything of their workspaces.
create policy services_select on public.services for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy staff_select on public.staff for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy opening_hours_select on public.opening_hours for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy customers_select on public.customers for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy leads_select on public.leads for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy appointments_select on public.appointments for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy waitlist_entries_select on public.waitlist_entries for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy pipeline_stages_select on public.pipeline_stages for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy deals_select on public.deals for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy posts_select on public.posts for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy campaigns_select on public.campaigns for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));
create policy site_daily_stats_select on public.site_daily_stats for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()));

-- Operational writes: members insert and update; admins delete (appointments: no delete at all).
create policy appointments_insert on public.appointments for insert to authenticated
  with check (workspace_id in (select private.member_workspace_ids()));
create policy appointments_update on public.appointments for update to authenticated
  using (workspace_id in (select private.member_workspace_ids()))
  with check (workspace_id in (select private.member_workspace_ids()));

create policy waitlist_entries_insert on public.waitlist_entries for insert to authenticated
  with check (workspace_id in (select private.member_workspace_ids()));
create policy waitlist_entries_update on public.waitlist_entries for update to authenticated
  using (workspace_id in (select private.member_workspace_ids()))
  with check (workspace_id in (select private.member_workspace_ids()));
create policy waitlist_entries_delete on public.waitlist_entries for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));

create policy customers_insert on public.customers for insert to authenticated
  with check (workspace_id in (select private.member_workspace_ids()));
create policy customers_update on public.customers for update to authenticated
  using (workspace_id in (select private.member_workspace_ids()))
  with check (workspace_id in (select private.member_workspace_ids()));
create policy customers_delete on public.customers for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));

create policy leads_insert on public.leads for insert to authenticated
  with check (workspace_id in (select private.member_workspace_ids()));
create policy leads_update on public.leads for update to authenticated
  using (workspace_id in (select private.member_workspace_ids()))
  with check (workspace_id in (select private.member_workspace_ids()));
create policy leads_delete on public.leads for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));

create policy deals_insert on public.deals for insert to authenticated
  with check (workspace_id in (select private.member_workspace_ids()));
create policy deals_update on public.deals for update to authenticated
  using (workspace_id in (select private.member_workspace_ids()))
  with check (workspace_id in (select private.member_workspace_ids()));
create policy deals_delete on public.deals for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));

-- Configuration: admins only.
create policy services_insert on public.services for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy services_update on public.services for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids()))
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy services_delete on public.services for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));

create policy staff_insert on public.staff for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy staff_update on public.staff for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids()))
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy staff_delete on public.staff for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));

create policy opening_hours_insert on public.opening_hours for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy opening_hours_update on public.opening_hours for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids()))
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy opening_hours_delete on public.opening_hours for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));

create policy pipeline_stages_insert on public.pipeline_stages for insert to authenticated
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy pipeline_stages_update on public.pipeline_stages for update to authenticated
  using (workspace_id in (select private.admin_workspace_ids()))
  with check (workspace_id in (select private.admin_workspace_ids()));
create policy pipeline_stages_delete on public.pipeline_stages for delete to authenticated
  using (workspace_id in (select private.admin_workspace_ids()));
