import { z } from 'zod';
import { notFound } from '@/lib/api';
import { decisionJoin, type DecisionStatus, type DecisionTier, type DecisionView } from '@/lib/autonomy';
import { withUser, type SessionUser, type Tx } from '@/lib/db';
import { APPOINTMENT_COLUMNS, APPOINTMENT_FROM, type AppointmentView } from './appointments';

/**
 * What the Bookings screen reads: one local day of a workspace (the agenda per staff member, the
 * waitlist of that day, and for each appointment what the reminder and waitlist agents did), a week at
 * a glance, and the customers to book. Days are the workspace's calendar days; "today" is the
 * caller's clock (`now`), never the database's, so a test (or a caller in another zone) gets one answer.
 */

/** A calendar date, YYYY-MM-DD, in years a salon's book can hold (Postgres refuses year 0, and far-off years are typos). */
const localDate = z.iso
  .date({ error: 'api.bookings.isoDate' })
  .refine((d) => Number(d.slice(0, 4)) >= 2000 && Number(d.slice(0, 4)) <= 2200, { error: 'api.bookings.isoDate' });

export const dayQuerySchema = z.object({ date: localDate.optional() });
export type DayQuery = z.infer<typeof dayQuerySchema>;

export const customerSearchSchema = z.object({ q: z.string().trim().max(80, 'api.bookings.searchTooLong').default('') });

/** What an agent did about an appointment: its reminder, or the offer of its freed slot to the waitlist. */
export interface AgentActivity {
  id: string;
  action_type: 'booking_reminder' | 'waitlist_offer';
  tier: DecisionTier;
  status: DecisionStatus;
  /** Who the message is (or would be) for: the customer for a reminder, the person offered the slot. */
  recipient_name: string;
  created_at: string;
  error: string | null;
  /** The message its execution queued, where it is now; null when nothing was queued. */
  delivery: DecisionView['delivery'];
}

export interface DayAppointment extends AppointmentView {
  consent_messages: boolean;
  agent_activity: AgentActivity[];
}

export interface StaffColumn {
  id: string;
  name: string;
  active: boolean;
}

export interface ServiceOption {
  id: string;
  name: string;
  duration_minutes: number;
  price_cents: number;
}

export interface WaitlistView {
  id: string;
  customer_id: string;
  customer_name: string;
  service_id: string;
  service_name: string;
  window_start: Date;
  window_end: Date;
  status: 'waiting' | 'offered' | 'booked' | 'expired';
  created_at: Date;
  notified_at: Date | null;
}

export interface BookingDay {
  date: string;
  today: string;
  time_zone: string;
  /** Opening hours of that weekday ("HH:MM"); empty when closed; null when the workspace keeps none (open any time). */
  opening_hours: { opens: string; closes: string }[] | null;
  /** Active staff, and any inactive one with an appointment that day. */
  staff: StaffColumn[];
  services: ServiceOption[];
  appointments: DayAppointment[];
  waitlist: WaitlistView[];
}

/** The workspace's zone, the day asked for (default: the caller's today there) and its bounds as instants. */
async function dayBounds(tx: Tx, workspaceId: string, date: string | undefined, now: Date) {
  const [row] = await tx.query<{ time_zone: string; date: string; today: string; from: Date; to: Date; weekday: number }>(
    `select w.time_zone, to_char(d.day, 'YYYY-MM-DD') as date, to_char(t.today, 'YYYY-MM-DD') as today,
            d.day::timestamp at time zone w.time_zone as from, (d.day + 1)::timestamp at time zone w.time_zone as to,
            extract(isodow from d.day)::int as weekday
       from public.workspaces w,
            lateral (select ($3::timestamptz at time zone w.time_zone)::date as today) t,
            lateral (select coalesce($2::date, t.today) as day) d
      where w.id = $1`,
    [workspaceId, date ?? null, now.toISOString()],
  );
  if (!row) throw notFound('workspace');
  return row;
}

/** The appointment columns plus consent and the agents' activity (decisions are found by their dedupe keys, which are indexed). */
const DAY_VIEW = `select ${APPOINTMENT_COLUMNS}, c.consent_messages,
         coalesce((select json_agg(json_build_object('id', d.id, 'action_type', d.action_type, 'tier', d.tier, 'status', d.status,
                                                     'recipient_name', coalesce(d.details ->> 'customerName', ''), 'created_at', d.created_at,
                                                     'error', d.error, 'delivery', m.delivery) order by d.created_at, d.id)
                     from public.agent_decisions d ${decisionJoin()}
                    where d.workspace_id = a.workspace_id
                      and d.dedupe_key in ('booking_reminder:' || a.id::text, 'waitlist_offer:' || a.id::text)), '[]'::json) as agent_activity
    ${APPOINTMENT_FROM}`;

/** One local day: staff, services, opening hours, every appointment (cancelled ones too: their freed slot has a story) and the waitlist. */
export async function bookingDay(user: SessionUser, workspaceId: string, query: DayQuery, now = new Date()): Promise<BookingDay> {
  return withUser(user, async (tx) => {
    const day = await dayBounds(tx, workspaceId, query.date, now);
    const hours = await tx.query<{ opens: string; closes: string }>(
      `select to_char(opens, 'HH24:MI') as opens, to_char(closes, 'HH24:MI') as closes from public.opening_hours
        where workspace_id = $1 and weekday = $2 order by opens`,
      [workspaceId, day.weekday],
    );
    const [{ keeps_hours }] = (await tx.query<{ keeps_hours: boolean }>(`select exists (select 1 from public.opening_hours where workspace_id = $1) as keeps_hours`, [
      workspaceId,
    ])) as [{ keeps_hours: boolean }];
    const appointments = await tx.query<DayAppointment>(
      `${DAY_VIEW} where a.workspace_id = $1 and a.starts_at >= $2 and a.starts_at < $3 order by a.starts_at, st.name, a.id`,
      [workspaceId, day.from, day.to],
    );
    const staff = await tx.query<StaffColumn>(
      `select id, name, active from public.staff st
        where workspace_id = $1
          and (active or exists (select 1 from public.appointments a where a.workspace_id = st.workspace_id and a.staff_id = st.id
                                   and a.starts_at >= $2 and a.starts_at < $3))
        order by name, id`,
      [workspaceId, day.from, day.to],
    );
    const services = await tx.query<ServiceOption>(
      `select id, name, duration_minutes, price_cents from public.services where workspace_id = $1 order by category, name, id`,
      [workspaceId],
    );
    const waitlist = await tx.query<WaitlistView>(
      `select w.id, w.customer_id, c.name as customer_name, w.service_id, s.name as service_name, w.window_start, w.window_end, w.status,
              w.created_at, w.notified_at
         from public.waitlist_entries w
         join public.customers c on c.workspace_id = w.workspace_id and c.id = w.customer_id
         join public.services s on s.workspace_id = w.workspace_id and s.id = w.service_id
        where w.workspace_id = $1 and w.window_start < $3 and w.window_end > $2
        order by w.created_at, w.id
        limit 200`,
      [workspaceId, day.from, day.to],
    );
    return {
      date: day.date,
      today: day.today,
      time_zone: day.time_zone,
      opening_hours: keeps_hours ? hours : null,
      staff,
      services,
      appointments,
      waitlist,
    };
  });
}

export interface WeekDay {
  date: string;
  /** Open that day: false only when the workspace keeps opening hours and has none on this weekday. */
  open: boolean;
  /** Appointments not cancelled, in all and per staff member. */
  booked: number;
  cancelled: number;
  by_staff: { staff_id: string; booked: number }[];
  /** Waitlist entries still waiting whose window touches the day. */
  waiting: number;
}

export interface BookingWeek {
  /** The Monday the week starts on. */
  start: string;
  today: string;
  time_zone: string;
  staff: StaffColumn[];
  days: WeekDay[];
}

/** The ISO week (Monday to Sunday) holding the day asked for: per day, how full it is, per staff member. */
export async function bookingWeek(user: SessionUser, workspaceId: string, query: DayQuery, now = new Date()): Promise<BookingWeek> {
  return withUser(user, async (tx) => {
    const day = await dayBounds(tx, workspaceId, query.date, now);
    const [week] = (await tx.query<{ start: string; from: Date; to: Date }>(
      `select to_char(m.monday, 'YYYY-MM-DD') as start, m.monday::timestamp at time zone $2 as from, (m.monday + 7)::timestamp at time zone $2 as to
         from (select $1::date - (extract(isodow from $1::date)::int - 1) as monday) m`,
      [day.date, day.time_zone],
    )) as [{ start: string; from: Date; to: Date }];
    const counts = await tx.query<{ date: string; staff_id: string; booked: number; cancelled: number }>(
      `select to_char((a.starts_at at time zone $4)::date, 'YYYY-MM-DD') as date, a.staff_id,
              count(*) filter (where a.status <> 'cancelled')::int as booked, count(*) filter (where a.status = 'cancelled')::int as cancelled
         from public.appointments a
        where a.workspace_id = $1 and a.starts_at >= $2 and a.starts_at < $3
        group by 1, 2`,
      [workspaceId, week.from, week.to, day.time_zone],
    );
    const days = await tx.query<{ date: string; open: boolean; waiting: number }>(
      `select to_char(g.day, 'YYYY-MM-DD') as date,
              (not exists (select 1 from public.opening_hours where workspace_id = $1)
               or exists (select 1 from public.opening_hours h where h.workspace_id = $1 and h.weekday = extract(isodow from g.day))) as open,
              (select count(*)::int from public.waitlist_entries w
                where w.workspace_id = $1 and w.status = 'waiting'
                  and w.window_start < (g.day + interval '1 day') at time zone $3 and w.window_end > g.day at time zone $3) as waiting
         from generate_series($2::date, $2::date + 6, interval '1 day') g (day)
        order by g.day`,
      [workspaceId, week.start, day.time_zone],
    );
    const staff = await tx.query<StaffColumn>(
      `select id, name, active from public.staff st
        where workspace_id = $1
          and (active or exists (select 1 from public.appointments a where a.workspace_id = st.workspace_id and a.staff_id = st.id
                                   and a.starts_at >= $2 and a.starts_at < $3))
        order by name, id`,
      [workspaceId, week.from, week.to],
    );
    return {
      start: week.start,
      today: day.today,
      time_zone: day.time_zone,
      staff,
      days: days.map((d) => {
        const rows = counts.filter((c) => c.date === d.date);
        return {
          date: d.date,
          open: d.open,
          booked: rows.reduce((n, r) => n + r.booked, 0),
          cancelled: rows.reduce((n, r) => n + r.cancelled, 0),
          by_staff: rows.filter((r) => r.booked > 0).map((r) => ({ staff_id: r.staff_id, booked: r.booked })),
          waiting: d.waiting,
        };
      }),
    };
  });
}

export interface CustomerOption {
  id: string;
  name: string;
  phone: string | null;
  email: string | null;
}

/** Customers to book, by a part of their name, phone or email (empty: the most recent visitors first). */
export async function findCustomers(user: SessionUser, workspaceId: string, q: string): Promise<CustomerOption[]> {
  return withUser(user, async (tx) => {
    const [ws] = await tx.query(`select 1 from public.workspaces where id = $1`, [workspaceId]);
    if (!ws) throw notFound('workspace');
    return tx.query<CustomerOption>(
      `select id, name, phone, email from public.customers
        where workspace_id = $1
          and ($2 = '' or strpos(lower(name), lower($2)) > 0 or strpos(coalesce(phone, ''), $2) > 0 or strpos(lower(coalesce(email, '')), lower($2)) > 0)
        order by last_visit_at desc nulls last, name, id
        limit 20`,
      [workspaceId, q],
    );
  });
}
