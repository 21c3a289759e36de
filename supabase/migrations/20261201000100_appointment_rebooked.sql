-- Rebooked, kept on the appointment. A visit counts as rebooked when a later appointment of the same
-- customer was booked by 24 h after it ended (one booked before the visit counts too): the booking
-- planet's rebooking rate. Checking that at read time took one index probe per completed visit of
-- the last 30 days on every Home load, the most expensive part of the daily brief; it depends only on
-- the customer's appointments (their times and creation, not their status and not the clock), so a
-- trigger keeps it exact as appointments are written.

alter table public.appointments add column rebooked boolean not null default false;

update public.appointments a
   set rebooked = true
 where exists (select 1 from public.appointments n
                where n.workspace_id = a.workspace_id and n.customer_id = a.customer_id
                  and n.starts_at > a.starts_at and n.created_at <= a.ends_at + interval '24 hours');

-- Recomputes `rebooked` for every appointment of the customers a statement touched: all of them on
-- insert and delete; on update only those whose customer, times or creation moved, which also keeps
-- the trigger's own update of `rebooked` (and status changes, reminders…) from doing any work.
-- Statement-level with transition tables like private.refresh_customer_visits(); definer, because
-- members may not write the column (it is granted to nobody).
create function private.refresh_appointments_rebooked() returns trigger
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
     where (n.customer_id, n.starts_at, n.ends_at, n.created_at) is distinct from (o.customer_id, o.starts_at, o.ends_at, o.created_at);
  else
    select array_agg(distinct customer_id) into v_ids from old_rows;
  end if;
  if v_ids is null then
    return null;
  end if;

  update public.appointments a
     set rebooked = r.rebooked
    from public.customers k
   cross join lateral (
      select x.id, exists (select 1 from public.appointments n
                            where n.workspace_id = x.workspace_id and n.customer_id = x.customer_id
                              and n.starts_at > x.starts_at and n.created_at <= x.ends_at + interval '24 hours') as rebooked
        from public.appointments x
       where x.workspace_id = k.workspace_id and x.customer_id = k.id
    ) r
   where k.id = any (v_ids) and a.id = r.id and a.rebooked is distinct from r.rebooked;
  return null;
end $$;
revoke execute on function private.refresh_appointments_rebooked() from public;

create trigger appointments_rebooked_insert after insert on public.appointments
  referencing new table as new_rows for each statement execute function private.refresh_appointments_rebooked();
create trigger appointments_rebooked_update after update on public.appointments
  referencing new table as new_rows old table as old_rows for each statement execute function private.refresh_appointments_rebooked();
create trigger appointments_rebooked_delete after delete on public.appointments
  referencing old table as old_rows for each statement execute function private.refresh_appointments_rebooked();
