-- What the appointments' statement triggers keep (the customers' visit statistics and each
-- appointment's `rebooked`), computed once per transaction when the transaction asks for it.
--
-- A CSV import writes 50,000 appointments as 50 statements of 1,000 rows in date order, so every
-- statement touches about a thousand customers and the triggers recomputed nearly every customer's
-- history 50 times (with one index probe per appointment for `rebooked`): 60 of the 65 s the import
-- took on PGlite. A transaction that sets `multiverbe.appointment_stats` to 'at_commit' (lib/imports
-- does, with set_config(…, true)) has the same triggers note the customers instead, and one deferred
-- trigger recomputes them all at commit. Setting it can only postpone the work to the end of the
-- same transaction, never skip it: the deferred trigger is armed by the first statement that notes
-- a customer, and what commits is exactly what the immediate triggers would have left.
--
-- Also:
--   * one trigger function, private.refresh_appointment_stats(), keeps both statistics, in place of
--     private.refresh_customer_visits() and private.refresh_appointments_rebooked(), and ignores
--     updates that change none of customer, status, times or creation (a re-import of unchanged
--     rows, its own update of `rebooked`, a reminder mark);
--   * `rebooked` is recomputed with one window over the customers' appointments, sorted once,
--     instead of one index probe per appointment: the same definition (a later appointment, by
--     start, created by 24 h after this one ended).

-- Per transaction: the customers whose statistics wait for the commit, and the one row whose
-- insertion queued the deferred trigger. Written and read only by the definer functions below.
create table private.appointment_stats_pending (
  txid xid8 not null,
  customer_id uuid not null,
  primary key (txid, customer_id)
);
create table private.appointment_stats_at_commit (txid xid8 primary key);
alter table private.appointment_stats_pending enable row level security;
alter table private.appointment_stats_at_commit enable row level security;
revoke all on table private.appointment_stats_pending, private.appointment_stats_at_commit from public, anon, authenticated;

-- The status is a filter of the aggregates, not of the scan, so that the one index that fits is the
-- customer's (workspace_id, customer_id, starts_at): PGlite never analyzes, and with no statistics the
-- planner once chose (workspace_id, status), reading every completed appointment for each customer.
create function private.recompute_customer_visits(p_ids uuid[]) returns void
language sql security definer set search_path = ''
as $$
  update public.customers c
     set visit_count = s.visits, first_visit_at = s.first_at, last_visit_at = s.last_at
    from unnest(p_ids) ids (id)
    join public.customers k on k.id = ids.id
    cross join lateral (
      select count(*) filter (where a.status = 'completed')::int as visits,
             min(a.starts_at) filter (where a.status = 'completed') as first_at,
             max(a.starts_at) filter (where a.status = 'completed') as last_at
        from public.appointments a
       where a.workspace_id = k.workspace_id and a.customer_id = k.id
    ) s
   where c.id = k.id
     and (c.visit_count, c.first_visit_at, c.last_visit_at) is distinct from (s.visits, s.first_at, s.last_at);
$$;

-- min(created_at) over the appointments that start later (the window's preceding rows, by start
-- descending, without the row's own peers): rebooked when that is by 24 h after this one ends.
create function private.recompute_appointments_rebooked(p_ids uuid[]) returns void
language sql security definer set search_path = ''
as $$
  update public.appointments a
     set rebooked = r.rebooked
    from (
      select x.id,
             coalesce(min(x.created_at) over (partition by x.workspace_id, x.customer_id order by x.starts_at desc
                                              range between unbounded preceding and current row exclude group)
                      <= x.ends_at + interval '24 hours', false) as rebooked
        from unnest(p_ids) ids (id)
        join public.customers k on k.id = ids.id
        join public.appointments x on x.workspace_id = k.workspace_id and x.customer_id = k.id
    ) r
   where a.id = r.id and a.rebooked is distinct from r.rebooked;
$$;

-- The one trigger function of appointments' statistics, for the three events (transition tables
-- allow one event per trigger), in place of one function per statistic (with three triggers each,
-- every statement read its transition tables twice, and the rebooked update woke the visits
-- trigger). The customers whose appointments were written, and on update only those whose customer,
-- status, times or creation moved (not the rebooked update below, a reminder mark, a re-import of an
-- unchanged row): recomputed now, or noted for the commit when the transaction asked for that.
-- `rebooked` first: its update runs this trigger again, which finds nothing it depends on changed.
create function private.refresh_appointment_stats() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_ids uuid[];
begin
  if tg_op = 'INSERT' then
    select array_agg(distinct customer_id) into v_ids from new_rows;
  elsif tg_op = 'UPDATE' then
    select array_agg(distinct c) into v_ids
      from new_rows n
      join old_rows o on o.id = n.id
     cross join lateral (values (n.customer_id), (o.customer_id)) moved (c)
     where (n.customer_id, n.status, n.starts_at, n.ends_at, n.created_at)
           is distinct from (o.customer_id, o.status, o.starts_at, o.ends_at, o.created_at);
  else
    select array_agg(distinct customer_id) into v_ids from old_rows;
  end if;
  if v_ids is null then
    return null;
  end if;
  if current_setting('multiverbe.appointment_stats', true) = 'at_commit' then
    insert into private.appointment_stats_pending (txid, customer_id)
    select pg_current_xact_id(), id from unnest(v_ids) id where id is not null
    on conflict do nothing;
    insert into private.appointment_stats_at_commit values (pg_current_xact_id()) on conflict do nothing;
  else
    perform private.recompute_appointments_rebooked(v_ids);
    perform private.recompute_customer_visits(v_ids);
  end if;
  return null;
end $$;

drop trigger appointments_visits_insert on public.appointments;
drop trigger appointments_visits_update on public.appointments;
drop trigger appointments_visits_delete on public.appointments;
drop trigger appointments_rebooked_insert on public.appointments;
drop trigger appointments_rebooked_update on public.appointments;
drop trigger appointments_rebooked_delete on public.appointments;
drop function private.refresh_customer_visits();
drop function private.refresh_appointments_rebooked();

create trigger appointments_stats_insert after insert on public.appointments
  referencing new table as new_rows for each statement execute function private.refresh_appointment_stats();
create trigger appointments_stats_update after update on public.appointments
  referencing new table as new_rows old table as old_rows for each statement execute function private.refresh_appointment_stats();
create trigger appointments_stats_delete after delete on public.appointments
  referencing old table as old_rows for each statement execute function private.refresh_appointment_stats();

-- At commit (or at SET CONSTRAINTS … IMMEDIATE): everything noted, `rebooked` first, as above. The
-- row is deleted, so a later statement of the same transaction arms the trigger again.
create function private.flush_appointment_stats() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_ids uuid[];
begin
  delete from private.appointment_stats_at_commit where txid = pg_current_xact_id();
  with noted as (delete from private.appointment_stats_pending where txid = pg_current_xact_id() returning customer_id)
  select array_agg(customer_id) into v_ids from noted;
  if v_ids is not null then
    perform private.recompute_appointments_rebooked(v_ids);
    perform private.recompute_customer_visits(v_ids);
  end if;
  return null;
end $$;

create constraint trigger appointment_stats_at_commit after insert on private.appointment_stats_at_commit
  deferrable initially deferred for each row execute function private.flush_appointment_stats();

revoke execute on function private.recompute_customer_visits(uuid[]), private.recompute_appointments_rebooked(uuid[]),
  private.refresh_appointment_stats(), private.flush_appointment_stats() from public;
