import type { WorkspaceDataSeeder } from '../rls-fixture';

/** One row in every planet table for the workspace, linked the way the app links them. */
export default (async (tx, _world, workspace) => {
  await tx.query(
    `with svc as (
       insert into public.services (workspace_id, name, category, duration_minutes, price_cents)
       values ($1, 'Taglio donna', 'Taglio', 45, 3800) returning id),
     stf as (insert into public.staff (workspace_id, name) values ($1, 'Giulia Rossi') returning id),
     hrs as (insert into public.opening_hours (workspace_id, weekday, opens, closes) values ($1, 2, '09:00', '19:00')),
     cus as (
       insert into public.customers (workspace_id, name, email, consent_messages)
       values ($1, 'Anna Bianchi', 'anna.bianchi@example.com', true) returning id),
     apt as (
       insert into public.appointments (workspace_id, customer_id, service_id, staff_id, starts_at, ends_at, status, price_cents)
       select $1, cus.id, svc.id, stf.id, now() + interval '1 day', now() + interval '1 day 45 minutes', 'booked', 3800
         from cus, svc, stf),
     wai as (
       insert into public.waitlist_entries (workspace_id, customer_id, service_id, window_start, window_end)
       select $1, cus.id, svc.id, now() + interval '2 days', now() + interval '3 days' from cus, svc),
     led as (insert into public.leads (workspace_id, name, phone, source) values ($1, 'Marco Conti', '+39 399 123 4567', 'walk_in')),
     stg as (
       insert into public.pipeline_stages (workspace_id, name, position, probability)
       values ($1, 'Nuovo contatto', 1, 10) returning id),
     dea as (
       insert into public.deals (workspace_id, title, customer_id, owner_user_id, stage_id, value_cents)
       select $1, 'Pacchetto sposa', cus.id, (select owner_id from public.workspaces where id = $1), stg.id, 90000 from cus, stg),
     pst as (insert into public.posts (workspace_id, channel, title) values ($1, 'instagram', 'Prima e dopo')),
     cmp as (insert into public.campaigns (workspace_id, name, channel) values ($1, 'Newsletter', 'email'))
     insert into public.site_daily_stats (workspace_id, day, visits, booking_page_visits, conversions)
     values ($1, current_date, 50, 12, 2)`,
    [workspace.id],
  );
}) satisfies WorkspaceDataSeeder;
