import { z } from 'zod';
import { conflict, invalidField, notFound } from '@/lib/api';
import { withUser, type SessionUser, type Tx } from '@/lib/db';
import { sendEvent } from '@/lib/events';
import { APPOINTMENT_STATUSES, type AppointmentStatus } from '@/lib/planets';

const instant = z.iso.datetime({ offset: true, error: 'api.bookings.isoInstant' });

export const bookingSchema = z.object({
  customerId: z.uuid(),
  serviceId: z.uuid(),
  staffId: z.uuid(),
  startsAt: instant,
  /** Booked from the waitlist: that entry (the same customer's, still waiting or offered) becomes `booked` with the appointment. */
  waitlistEntryId: z.uuid().optional(),
});
export type BookingInput = z.infer<typeof bookingSchema>;

/** A change is either a new status or a move (to another time, and optionally another stylist). */
export const appointmentChangeSchema = z.union([
  z.object({ status: z.enum(APPOINTMENT_STATUSES).exclude(['booked']) }).strict(),
  z.object({ startsAt: instant, staffId: z.uuid().optional() }).strict(),
]);
export type AppointmentChange = z.infer<typeof appointmentChangeSchema>;

export const listAppointmentsSchema = z.object({
  from: instant.optional(),
  to: instant.optional(),
  staffId: z.uuid().optional(),
  status: z.enum(APPOINTMENT_STATUSES).optional(),
});

/** A row as lib returns it (snake_case; the API serializer makes it camelCase). */
export interface AppointmentView {
  id: string;
  /** Null once the customer was erased (lib/customers): the appointment stays, detached. */
  customer_id: string | null;
  customer_name: string | null;
  service_id: string;
  service_name: string;
  staff_id: string;
  staff_name: string;
  starts_at: Date;
  ends_at: Date;
  status: AppointmentStatus;
  price_cents: number;
  created_at: Date;
  cancelled_at: Date | null;
  reminder_sent_at: Date | null;
}

/** The columns of an AppointmentView (`a` appointments, `c` customers, `s` services, `st` staff) and the joins they need. */
export const APPOINTMENT_COLUMNS = `a.id, a.customer_id, c.name as customer_name, a.service_id, s.name as service_name, a.staff_id, st.name as staff_name,
                     a.starts_at, a.ends_at, a.status, a.price_cents, a.created_at, a.cancelled_at, a.reminder_sent_at`;
export const APPOINTMENT_FROM = `from public.appointments a
                left join public.customers c on c.workspace_id = a.workspace_id and c.id = a.customer_id
                join public.services s on s.workspace_id = a.workspace_id and s.id = a.service_id
                join public.staff st on st.workspace_id = a.workspace_id and st.id = a.staff_id`;
const VIEW = `select ${APPOINTMENT_COLUMNS} ${APPOINTMENT_FROM}`;

/** The appointments of a period (default: from the start of today, local, for 7 days), by start time. */
export async function listAppointments(
  user: SessionUser,
  workspaceId: string,
  query: z.infer<typeof listAppointmentsSchema>,
  now = new Date(),
): Promise<AppointmentView[]> {
  return withUser(user, async (tx) => {
    // "Today" is the caller's clock (as for booking), not the database's: the two differ under a test's fake clock.
    const [ws] = await tx.query<{ from: Date; to: Date }>(
      `select f.from, coalesce($3::timestamptz, f.from + interval '7 days') as to
         from public.workspaces w,
              lateral (select coalesce($2::timestamptz, date_trunc('day', $4::timestamptz at time zone w.time_zone) at time zone w.time_zone) as from) f
        where w.id = $1`,
      [workspaceId, query.from ?? null, query.to ?? null, now],
    );
    if (!ws) throw notFound('workspace');
    if (ws.to <= ws.from) throw invalidField('to', 'api.bookings.toAfterFrom');
    if (ws.to.getTime() - ws.from.getTime() > 93 * 86_400_000) throw invalidField('to', 'api.bookings.range');
    return tx.query<AppointmentView>(
      `${VIEW}
        where a.workspace_id = $1 and a.starts_at >= $2 and a.starts_at < $3
          and ($4::uuid is null or a.staff_id = $4) and ($5::text is null or a.status = $5)
        order by a.starts_at, a.id
        limit 1000`,
      [workspaceId, ws.from, ws.to, query.staffId ?? null, query.status ?? null],
    );
  });
}

/**
 * Books an appointment: the service gives its length and price; the stylist must be active and free
 * (overlaps are refused, also between two bookings racing for the same slot: the stylist's lock); the
 * slot must lie inside the opening hours when the workspace has any. Emits `booking/created`. Booked from
 * the waitlist, the entry is marked booked in the same transaction, so the waitlist agent offers that
 * customer nothing more.
 */
export async function bookAppointment(user: SessionUser, workspaceId: string, input: BookingInput, now = new Date()): Promise<AppointmentView> {
  return withUser(user, async (tx) => {
    const id = await insertAppointment(tx, workspaceId, input, now);
    if (input.waitlistEntryId) {
      const taken = await tx.query(
        `update public.waitlist_entries set status = 'booked'
          where workspace_id = $1 and id = $2 and customer_id = $3 and status in ('waiting', 'offered') returning 1`,
        [workspaceId, input.waitlistEntryId, input.customerId],
      );
      if (taken.length === 0) throw invalidField('waitlistEntryId', 'api.bookings.noSuchWaitlistEntry');
    }
    await sendEvent({ name: 'booking/created', data: { workspaceId, appointmentId: id } }, tx);
    return readAppointment(tx, workspaceId, id);
  });
}

/**
 * Changes an appointment. Status: booked → confirmed; booked or confirmed → cancelled (the slot goes
 * to the waitlist: `booking/cancelled`), or, once it has started, completed or no-show; the last three
 * are final. A move keeps the history: the appointment is cancelled and a new one is booked at the new
 * time (its own reminder; the old slot is offered to the waitlist) — the new one is returned.
 */
export async function changeAppointment(
  user: SessionUser,
  workspaceId: string,
  appointmentId: string,
  change: AppointmentChange,
  now = new Date(),
): Promise<AppointmentView> {
  return withUser(user, async (tx) => {
    const [a] = await tx.query<{ status: AppointmentView['status']; starts_at: Date; customer_id: string; service_id: string; staff_id: string }>(
      `select status, starts_at, customer_id, service_id, staff_id from public.appointments where workspace_id = $1 and id = $2 for update`,
      [workspaceId, appointmentId],
    );
    if (!a) throw notFound('appointment');
    if (a.status === 'cancelled' || a.status === 'completed' || a.status === 'no_show') {
      throw conflict(`api.bookings.alreadyFinal.${a.status}`);
    }

    if ('startsAt' in change) {
      await setStatus(tx, workspaceId, appointmentId, 'cancelled', now);
      const id = await insertAppointment(
        tx,
        workspaceId,
        { customerId: a.customer_id, serviceId: a.service_id, staffId: change.staffId ?? a.staff_id, startsAt: change.startsAt },
        now,
      );
      await sendEvent(
        [
          { name: 'booking/cancelled', data: { workspaceId, appointmentId } },
          { name: 'booking/created', data: { workspaceId, appointmentId: id } },
        ],
        tx,
      );
      return readAppointment(tx, workspaceId, id);
    }

    switch (change.status) {
      case 'cancelled':
        await setStatus(tx, workspaceId, appointmentId, 'cancelled', now);
        await sendEvent({ name: 'booking/cancelled', data: { workspaceId, appointmentId } }, tx);
        break;
      case 'confirmed':
        if (a.status === 'confirmed') break;
        await setStatus(tx, workspaceId, appointmentId, 'confirmed', now);
        break;
      case 'completed':
      case 'no_show':
        if (a.starts_at > now) throw conflict('api.bookings.notStarted');
        await setStatus(tx, workspaceId, appointmentId, change.status, now);
        break;
    }
    return readAppointment(tx, workspaceId, appointmentId);
  });
}

async function insertAppointment(tx: Tx, workspaceId: string, input: BookingInput, now: Date): Promise<string> {
  const startsAt = new Date(input.startsAt);
  if (startsAt <= now) throw invalidField('startsAt', 'api.bookings.futureOnly');
  const [ctx] = await tx.query<{
    time_zone: string;
    customer: boolean;
    duration_minutes: number | null;
    price_cents: number | null;
    staff_active: boolean | null;
  }>(
    `select w.time_zone,
            exists (select 1 from public.customers c where c.workspace_id = w.id and c.id = $2) as customer,
            s.duration_minutes, s.price_cents, st.active as staff_active
       from public.workspaces w
       left join public.services s on s.workspace_id = w.id and s.id = $3
       left join public.staff st on st.workspace_id = w.id and st.id = $4
      where w.id = $1`,
    [workspaceId, input.customerId, input.serviceId, input.staffId],
  );
  if (!ctx) throw notFound('workspace');
  if (!ctx.customer) throw invalidField('customerId', 'api.bookings.noSuchCustomer');
  if (ctx.duration_minutes === null || ctx.price_cents === null) throw invalidField('serviceId', 'api.bookings.noSuchService');
  if (ctx.staff_active === null) throw invalidField('staffId', 'api.bookings.noSuchStylist');
  if (!ctx.staff_active) throw invalidField('staffId', 'api.bookings.stylistInactive');
  const endsAt = new Date(startsAt.getTime() + ctx.duration_minutes * 60_000);

  // Two bookings for the same stylist wait for each other here, so the overlap check below holds.
  await tx.query(`select pg_advisory_xact_lock(hashtextextended($1, 0))`, [`appointments:${workspaceId}:${input.staffId}`]);
  const [check] = await tx.query<{ open: boolean; clash: string | null }>(
    `select (not exists (select 1 from public.opening_hours where workspace_id = $1)
             or exists (select 1 from public.opening_hours h
                         where h.workspace_id = $1
                           and h.weekday = extract(isodow from $3::timestamptz at time zone $5)
                           and ($3::timestamptz at time zone $5)::date = ($4::timestamptz at time zone $5)::date
                           and h.opens <= ($3::timestamptz at time zone $5)::time
                           and h.closes >= ($4::timestamptz at time zone $5)::time)) as open,
            (select to_char(o.starts_at at time zone $5, 'HH24:MI') from public.appointments o
              where o.workspace_id = $1 and o.staff_id = $2 and o.status <> 'cancelled'
                and o.starts_at < $4 and o.ends_at > $3
              order by o.starts_at limit 1) as clash`,
    [workspaceId, input.staffId, startsAt.toISOString(), endsAt.toISOString(), ctx.time_zone],
  );
  if (!check!.open) throw invalidField('startsAt', 'api.bookings.closed');
  if (check!.clash) throw conflict('api.bookings.clash', { time: check!.clash });

  const [row] = await tx.query<{ id: string }>(
    `insert into public.appointments (workspace_id, customer_id, service_id, staff_id, starts_at, ends_at, status, price_cents)
     values ($1, $2, $3, $4, $5, $6, 'booked', $7) returning id`,
    [workspaceId, input.customerId, input.serviceId, input.staffId, startsAt.toISOString(), endsAt.toISOString(), ctx.price_cents],
  );
  return row!.id;
}

async function setStatus(tx: Tx, workspaceId: string, appointmentId: string, status: Exclude<AppointmentStatus, 'booked'>, now: Date) {
  await tx.query(
    `update public.appointments set status = $3, cancelled_at = case when $3 = 'cancelled' then $4::timestamptz else cancelled_at end
      where workspace_id = $1 and id = $2`,
    [workspaceId, appointmentId, status, now.toISOString()],
  );
}

async function readAppointment(tx: Tx, workspaceId: string, id: string): Promise<AppointmentView> {
  const [row] = await tx.query<AppointmentView>(`${VIEW} where a.workspace_id = $1 and a.id = $2`, [workspaceId, id]);
  return row!;
}
