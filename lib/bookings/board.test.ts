import { beforeAll, describe, expect, it } from 'vitest';
import { GET as customersRoute } from '@/app/api/workspaces/[workspaceId]/appointments/customers/route';
import { GET as dayRoute } from '@/app/api/workspaces/[workspaceId]/appointments/day/route';
import { GET as weekRoute } from '@/app/api/workspaces/[workspaceId]/appointments/week/route';
import { signAccessToken } from '@/lib/auth';
import { submitAction } from '@/lib/autonomy';
import { createSalon, type Salon } from '@/lib/autonomy/test-world';
import { asService } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { bookAppointment, changeAppointment } from './appointments';
import { bookingDay, bookingWeek, findCustomers } from './board';

setupTestDatabase();

/**
 * The Bookings screen's reads: a local day per staff member (Rome's day, from the caller's clock), what
 * the reminder and waitlist agents did for each appointment (never "sent" while the message waits in the
 * outbox), the waitlist of the day, the week at a glance, and the customers to book — all for a member
 * of the workspace (the front desk), none for anyone else. Every clock is passed as `now`.
 */
let salon: Salon;
const ws = () => salon.workspace.id;
const q = <T = Record<string, any>>(sql: string, params: unknown[] = []) => asService((tx) => tx.query<T>(sql, params));
const get = async (handler: typeof dayRoute, path: string, user: Salon['member'] | null = salon.member) =>
  handler(new Request(`http://test/api/workspaces/${ws()}/appointments/${path}`, { headers: user ? { authorization: `Bearer ${await signAccessToken(user)}` } : {} }), {
    params: Promise.resolve({ workspaceId: ws() }),
  });

// Monday 30 November 2026, 07:00 in Rome; the demo salon opens Tuesday to Saturday, 09:00–19:00.
const NOW = new Date('2026-11-30T06:00:00Z');
const localDay = (instant: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(instant);

beforeAll(async () => {
  salon = await createSalon('2026-11-30');
});

describe('a day', () => {
  it("holds the appointments of the workspace's local day, per staff member, with that weekday's opening hours", async () => {
    const day = await bookingDay(salon.member, ws(), { date: '2026-12-01' }, NOW);
    const [{ n }] = (await q<{ n: number }>(
      `select count(*)::int as n from public.appointments where workspace_id = $1 and (starts_at at time zone 'Europe/Rome')::date = '2026-12-01'`,
      [ws()],
    )) as [{ n: number }];
    expect(n).toBeGreaterThan(5);
    expect(day.appointments).toHaveLength(n);
    expect(new Set(day.appointments.map((a) => localDay(a.starts_at)))).toEqual(new Set(['2026-12-01']));
    expect(day.opening_hours).toEqual([{ opens: '09:00', closes: '19:00' }]);
    const staffIds = new Set(day.staff.map((s) => s.id));
    expect(day.appointments.every((a) => staffIds.has(a.staff_id))).toBe(true);
    expect((await bookingDay(salon.member, ws(), { date: '2026-12-07' }, NOW)).opening_hours).toEqual([]); // Monday: closed
  });

  it("is today by the caller's clock in the workspace's zone: 00:30 in Rome is already the next day", async () => {
    expect(await bookingDay(salon.member, ws(), {}, NOW)).toMatchObject({ date: '2026-11-30', today: '2026-11-30' });
    expect(await bookingDay(salon.member, ws(), {}, new Date('2026-11-30T23:30:00Z'))).toMatchObject({ date: '2026-12-01', today: '2026-12-01' });
  });

  it('says what the reminder agent did: waiting for an OK, or queued and ready — not sent, as no SMS or email is connected', async () => {
    const upcoming = await q<{ id: string }>(
      `select a.id from public.appointments a join public.customers c on c.id = a.customer_id
        where a.workspace_id = $1 and a.status in ('booked', 'confirmed') and a.reminder_sent_at is null and c.consent_messages
          and (c.phone is not null or c.email is not null) and (a.starts_at at time zone 'Europe/Rome')::date = '2026-12-02'
        order by a.starts_at limit 3`,
      [ws()],
    );
    const [proposed, automatic, untouched] = upcoming.map((r) => r.id);
    await asService((tx) => submitAction(tx, { workspaceId: ws(), type: 'booking_reminder', input: { appointmentId: proposed! }, trigger: 'test', now: NOW }));
    await q(`insert into public.workspace_action_autonomy (workspace_id, action_type, auto) values ($1, 'booking_reminder', true)`, [ws()]);
    await asService((tx) => submitAction(tx, { workspaceId: ws(), type: 'booking_reminder', input: { appointmentId: automatic! }, trigger: 'test', now: NOW }));

    const day = await bookingDay(salon.member, ws(), { date: '2026-12-02' }, NOW);
    const activity = (id: string) => day.appointments.find((a) => a.id === id)!.agent_activity;
    expect(activity(proposed!)).toEqual([expect.objectContaining({ action_type: 'booking_reminder', tier: 'propose', status: 'proposed', delivery: null })]);
    expect(activity(automatic!)).toEqual([
      expect.objectContaining({ action_type: 'booking_reminder', tier: 'auto', status: 'executed', delivery: expect.objectContaining({ status: 'queued', sent_at: null }) }),
    ]);
    expect(activity(untouched!)).toEqual([]);
  });

  it('says to whom the waitlist agent offered a cancelled slot, and shows the waitlist of the day', async () => {
    const freed = await q<{ id: string; date: string }>(
      `select id, to_char((starts_at at time zone 'Europe/Rome')::date, 'YYYY-MM-DD') as date from public.appointments
        where workspace_id = $1 and status = 'cancelled' and starts_at > $2 order by starts_at`,
      [ws(), new Date(NOW.getTime() + 86_400_000).toISOString()],
    );
    let offered: { id: string; date: string } | undefined;
    for (const slot of freed) {
      const outcome = await asService((tx) => submitAction(tx, { workspaceId: ws(), type: 'waitlist_offer', input: { appointmentId: slot.id }, trigger: 'test', now: NOW }));
      if (outcome.status !== 'not_applicable') {
        offered = slot;
        break;
      }
    }
    expect(offered, 'the demo frees a slot someone on the waitlist fits').toBeDefined();
    const [decision] = await q<{ name: string }>(`select details ->> 'customerName' as name from public.agent_decisions where dedupe_key = $1`, [
      `waitlist_offer:${offered!.id}`,
    ]);
    const day = await bookingDay(salon.member, ws(), { date: offered!.date }, NOW);
    const slot = day.appointments.find((a) => a.id === offered!.id)!;
    expect(slot.status).toBe('cancelled');
    expect(slot.agent_activity).toEqual([expect.objectContaining({ action_type: 'waitlist_offer', recipient_name: decision!.name })]);
    expect(day.waitlist.map((w) => w.customer_name)).toContain(decision!.name);
    for (const entry of day.waitlist) {
      expect(entry.window_start.getTime()).toBeLessThan(new Date(`${offered!.date}T23:00:00Z`).getTime());
      expect(entry.window_end.getTime()).toBeGreaterThan(new Date(`${offered!.date}T00:00:00+01:00`).getTime() - 3_600_000);
    }
  });

  it('shows a move as it happened: the old appointment cancelled, the new one with the other stylist', async () => {
    const day = await bookingDay(salon.member, ws(), { date: '2026-12-03' }, NOW);
    const other = day.staff[day.staff.length - 1]!;
    const a = day.appointments.find((x) => x.status !== 'cancelled' && x.staff_id !== other.id)!;
    const moved = await changeAppointment(salon.member, ws(), a.id, { startsAt: '2026-12-03T20:00:00+01:00', staffId: other.id }, NOW).catch((e) => e);
    expect(moved).toMatchObject({ status: 422 }); // after closing time
    const [free] = await q<{ at: string }>(
      `select to_char(t at time zone 'Europe/Rome', 'YYYY-MM-DD"T"HH24:MI:SS"+01:00"') as at
         from generate_series('2026-12-03T09:00:00+01:00'::timestamptz, '2026-12-03T16:00:00+01:00'::timestamptz, interval '15 minutes') t
        where not exists (select 1 from public.appointments o where o.workspace_id = $1 and o.staff_id = $2 and o.status <> 'cancelled'
                            and o.starts_at < t + ($3 || ' minutes')::interval and o.ends_at > t)
        order by t limit 1`,
      [ws(), other.id, (a.ends_at.getTime() - a.starts_at.getTime()) / 60_000],
    );
    const fresh = await changeAppointment(salon.member, ws(), a.id, { startsAt: free!.at, staffId: other.id }, NOW);
    const after = await bookingDay(salon.member, ws(), { date: '2026-12-03' }, NOW);
    expect(after.appointments.find((x) => x.id === a.id)!.status).toBe('cancelled');
    expect(after.appointments.find((x) => x.id === fresh.id)).toMatchObject({ staff_id: other.id, status: 'booked', customer_id: a.customer_id });
  });
});

describe('the week and the customers', () => {
  it('counts the appointments of each day from Monday to Sunday, per staff member; closed days say so', async () => {
    const week = await bookingWeek(salon.member, ws(), { date: '2026-12-03' }, NOW);
    expect(week.start).toBe('2026-11-30');
    expect(week.days.map((d) => d.date)).toEqual(['2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06']);
    expect(week.days.map((d) => d.open)).toEqual([false, true, true, true, true, true, false]);
    const tuesday = await bookingDay(salon.member, ws(), { date: '2026-12-01' }, NOW);
    const active = tuesday.appointments.filter((a) => a.status !== 'cancelled');
    expect(week.days[1]).toMatchObject({ booked: active.length, cancelled: tuesday.appointments.length - active.length });
    for (const s of week.days[1]!.by_staff) expect(s.booked).toBe(active.filter((a) => a.staff_id === s.staff_id).length);
  });

  it('finds customers to book by part of a name or phone', async () => {
    const [someone] = await q<{ name: string; phone: string }>(`select name, phone from public.customers where workspace_id = $1 and phone is not null order by name limit 1`, [ws()]);
    const byName = await findCustomers(salon.member, ws(), someone!.name.split(' ')[1]!.slice(0, 4).toUpperCase());
    expect(byName.map((c) => c.name)).toContain(someone!.name);
    expect((await findCustomers(salon.member, ws(), someone!.phone.slice(-6))).map((c) => c.name)).toContain(someone!.name);
    expect(await findCustomers(salon.member, ws(), 'nobody has this name')).toEqual([]);
  });
});

describe('the API', () => {
  it('answers a member in camelCase; 401 without a session, 404 to a stranger, 422 for a date that is not one', async () => {
    const res = await get(dayRoute, 'day?date=2026-12-02');
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toMatchObject({ date: '2026-12-02', timeZone: 'Europe/Rome', openingHours: [{ opens: '09:00', closes: '19:00' }] });
    expect(data.appointments.some((a: { agentActivity: { deliveryStatus?: string; delivery: { status: string; sentAt: null } | null }[] }) =>
      a.agentActivity.some((x) => x.delivery?.status === 'queued' && x.delivery.sentAt === null),
    )).toBe(true);
    expect((await get(dayRoute, 'day?date=2026-12-02', null)).status).toBe(401);
    expect((await get(dayRoute, 'day?date=2026-12-02', await createUser('stranger'))).status).toBe(404);
    for (const bad of ['2026-13-01', '2026-02-30', '0000-01-01', 'tomorrow']) {
      const r = await get(dayRoute, `day?date=${bad}`);
      expect(r.status, bad).toBe(422);
      expect((await r.json()).error.details.fieldErrors).toHaveProperty('date');
    }
    const week = await get(weekRoute, 'week?date=2026-12-02');
    expect(week.status).toBe(200);
    expect((await week.json()).data.days).toHaveLength(7);
    expect((await get(weekRoute, 'week', await createUser('stranger'))).status).toBe(404);
    const found = await get(customersRoute, 'customers?q=a');
    expect(found.status).toBe(200);
    expect((await found.json()).data.length).toBeGreaterThan(0);
    expect((await get(customersRoute, `customers?q=${'x'.repeat(81)}`)).status).toBe(422);
    expect((await get(customersRoute, 'customers', await createUser('stranger'))).status).toBe(404);
  });
});

describe('booking from the waitlist', () => {
  it('takes the entry off the waitlist with the booking; an entry of someone else changes nothing (422)', async () => {
    const [entry] = await q<{ id: string; customer_id: string; service_id: string }>(
      `insert into public.waitlist_entries (workspace_id, customer_id, service_id, window_start, window_end)
       select $1, c.id, s.id, '2026-12-04T09:00:00+01:00', '2026-12-04T19:00:00+01:00'
         from public.customers c, public.services s where c.workspace_id = $1 and s.workspace_id = $1 order by c.name, s.duration_minutes limit 1
       returning id, customer_id, service_id`,
      [ws()],
    );
    const day = await bookingDay(salon.member, ws(), { date: '2026-12-04' }, NOW);
    expect(day.waitlist.find((w) => w.id === entry!.id)).toMatchObject({ status: 'waiting' });
    const staff = day.staff[0]!;
    const [free] = await q<{ at: string }>(
      `select to_char(t at time zone 'Europe/Rome', 'YYYY-MM-DD"T"HH24:MI:SS"+01:00"') as at
         from generate_series('2026-12-04T09:00:00+01:00'::timestamptz, '2026-12-04T17:00:00+01:00'::timestamptz, interval '15 minutes') t
        where not exists (select 1 from public.appointments o where o.workspace_id = $1 and o.staff_id = $2 and o.status <> 'cancelled'
                            and o.starts_at < t + interval '2 hours' and o.ends_at > t)
        order by t limit 1`,
      [ws(), staff.id],
    );
    const count = async () => (await q<{ n: number }>(`select count(*)::int as n from public.appointments where workspace_id = $1`, [ws()]))[0]!.n;
    const before = await count();
    const [other] = await q<{ id: string }>(`select id from public.customers where workspace_id = $1 and id <> $2 limit 1`, [ws(), entry!.customer_id]);
    await expect(
      bookAppointment(salon.member, ws(), { customerId: other!.id, serviceId: entry!.service_id, staffId: staff.id, startsAt: free!.at, waitlistEntryId: entry!.id }, NOW),
    ).rejects.toMatchObject({ status: 422 });
    expect(await count()).toBe(before);

    const booked = await bookAppointment(
      salon.member,
      ws(),
      { customerId: entry!.customer_id, serviceId: entry!.service_id, staffId: staff.id, startsAt: free!.at, waitlistEntryId: entry!.id },
      NOW,
    );
    expect(booked.customer_id).toBe(entry!.customer_id);
    const after = await bookingDay(salon.member, ws(), { date: '2026-12-04' }, NOW);
    expect(after.waitlist.find((w) => w.id === entry!.id)).toMatchObject({ status: 'booked' });
    await expect(
      bookAppointment(salon.member, ws(), { customerId: entry!.customer_id, serviceId: entry!.service_id, staffId: staff.id, startsAt: '2026-12-05T09:00:00+01:00', waitlistEntryId: entry!.id }, NOW),
    ).rejects.toMatchObject({ status: 422 });
  });
});
