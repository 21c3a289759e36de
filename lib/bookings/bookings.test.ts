import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PATCH as patchAppointment } from '@/app/api/workspaces/[workspaceId]/appointments/[appointmentId]/route';
import { GET as listRoute, POST as bookRoute } from '@/app/api/workspaces/[workspaceId]/appointments/route';
import { signAccessToken } from '@/lib/auth';
import { createSalon, type Salon } from '@/lib/autonomy/test-world';
import { asService } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { bookAppointment, changeAppointment } from './appointments';

setupTestDatabase();

/**
 * The booking API a front desk or the owner's software uses: what it refuses and why, that nothing
 * is half-written, and that each change emits the event that starts its flow (reminder, freed-slot
 * offer). The flows themselves: lib/actions/reminder-flow.test.ts, inngest/functions/offer-freed-slot.test.ts.
 */
let salon: Salon;
let refs: { customerId: string; serviceId: string; staffId: string; duration: number };
const ws = () => salon.workspace.id;
const q = <T = Record<string, any>>(sql: string, params: unknown[] = []) => asService((tx) => tx.query<T>(sql, params));
const bearer = async (user = salon.owner) => ({ authorization: `Bearer ${await signAccessToken(user)}`, 'content-type': 'application/json' });
const eventsFor = (appointmentId: string) =>
  // Sorted by name: PGlite's clock is the (faked) JS clock, so creation times can tie.
  q<{ name: string }>(`select name from private.executor_events where data->>'appointmentId' = $1 order by name`, [appointmentId]).then((rows) =>
    rows.map((r) => r.name),
  );
const appointmentCount = () => q<{ n: number }>(`select count(*)::int as n from public.appointments where workspace_id = $1`, [ws()]).then((r) => r[0]!.n);

// Monday 30 November 2026, 07:00 in Rome (the demo salon opens Tuesday to Saturday, 09:00–19:00).
const NOW = new Date('2026-11-30T06:00:00Z');
const WEDNESDAY_10 = '2026-12-02T10:00:00+01:00';

beforeAll(async () => {
  salon = await createSalon('2026-11-30');
  // A customer who agreed to messages and a stylist with an empty diary.
  const [row] = await q<{ customer_id: string; service_id: string; staff_id: string; duration: number }>(
    `with c as (insert into public.customers (workspace_id, name, phone, consent_messages) values ($1, 'Lucia Neri', '+39 333 111 2222', true) returning id),
          st as (insert into public.staff (workspace_id, name) values ($1, 'Nuova Stilista') returning id),
          s as (select id, duration_minutes from public.services where workspace_id = $1 order by name limit 1)
     select c.id as customer_id, s.id as service_id, st.id as staff_id, s.duration_minutes as duration from c, st, s`,
    [ws()],
  );
  refs = { customerId: row!.customer_id, serviceId: row!.service_id, staffId: row!.staff_id, duration: row!.duration };
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterAll(() => vi.useRealTimers());

const booking = (startsAt: string) => ({ customerId: refs.customerId, serviceId: refs.serviceId, staffId: refs.staffId, startsAt });

describe('booking', () => {
  it('books through the API: length and price from the service, 201 in camelCase, and the reminder flow is started', async () => {
    const res = await bookRoute(
      new Request(`http://test/api/workspaces/${ws()}/appointments`, { method: 'POST', headers: await bearer(), body: JSON.stringify(booking(WEDNESDAY_10)) }),
      { params: Promise.resolve({ workspaceId: ws() }) },
    );
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data).toMatchObject({ status: 'booked', customerName: 'Lucia Neri', staffName: 'Nuova Stilista', startsAt: '2026-12-02T09:00:00.000Z' });
    expect(new Date(data.endsAt).getTime() - new Date(data.startsAt).getTime()).toBe(refs.duration * 60_000);
    const [service] = await q<{ price_cents: number }>(`select price_cents from public.services where id = $1`, [refs.serviceId]);
    expect(data.priceCents).toBe(service!.price_cents);
    expect(await eventsFor(data.id)).toEqual(['booking/created']);

    const listed = await listRoute(new Request(`http://test/api/workspaces/${ws()}/appointments?staffId=${refs.staffId}`, { headers: await bearer(salon.member) }), {
      params: Promise.resolve({ workspaceId: ws() }),
    });
    expect((await listed.json()).data.map((a: { id: string }) => a.id)).toEqual([data.id]);
  });

  it('refuses an overlapping slot with 409 and writes nothing, also when two bookings race for it', async () => {
    const before = await appointmentCount();
    // 30 minutes into the Wednesday appointment above.
    await expect(bookAppointment(salon.member, ws(), booking('2026-12-02T10:30:00+01:00'))).rejects.toMatchObject({ status: 409, message: expect.stringContaining('10:00') });
    const race = await Promise.allSettled([
      bookAppointment(salon.owner, ws(), booking('2026-12-03T15:00:00+01:00')),
      bookAppointment(salon.admin, ws(), booking('2026-12-03T15:15:00+01:00')),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((race.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ status: 409 });
    expect(await appointmentCount()).toBe(before + 1);
  });

  it('says what is wrong with the request: closed, past, unknown references, malformed', async () => {
    const before = await appointmentCount();
    const post = async (body: unknown, user = salon.owner) =>
      bookRoute(new Request(`http://test/api/workspaces/${ws()}/appointments`, { method: 'POST', headers: await bearer(user), body: JSON.stringify(body) }), {
        params: Promise.resolve({ workspaceId: ws() }),
      });
    const monday = await post(booking('2026-12-07T10:00:00+01:00'));
    expect(monday.status).toBe(422);
    expect((await monday.json()).error.message).toMatch(/closed/);
    expect((await post(booking('2026-12-02T18:45:00+01:00'))).status).toBe(422); // ends after 19:00
    expect((await post(booking('2026-11-29T10:00:00+01:00'))).status).toBe(422); // the past
    const unknown = await post({ ...booking(WEDNESDAY_10), serviceId: crypto.randomUUID() });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).error.details.fieldErrors).toHaveProperty('serviceId');
    expect((await post({ ...booking(WEDNESDAY_10), startsAt: 'tomorrow at ten' })).status).toBe(422);
    expect((await post(booking(WEDNESDAY_10), await createUser('stranger'))).status).toBe(404);
    expect(await appointmentCount()).toBe(before);
  });
});

describe('changing an appointment', () => {
  it('confirms, then refuses to mark a future appointment done; a final one cannot change', async () => {
    const a = await bookAppointment(salon.owner, ws(), booking('2026-12-04T11:00:00+01:00'));
    expect(await changeAppointment(salon.member, ws(), a.id, { status: 'confirmed' })).toMatchObject({ status: 'confirmed' });
    await expect(changeAppointment(salon.member, ws(), a.id, { status: 'completed' })).rejects.toMatchObject({ status: 409 });
    vi.setSystemTime(new Date('2026-12-04T10:30:00Z'));
    expect(await changeAppointment(salon.member, ws(), a.id, { status: 'no_show' })).toMatchObject({ status: 'no_show' });
    await expect(changeAppointment(salon.member, ws(), a.id, { status: 'cancelled' })).rejects.toMatchObject({ status: 409 });
    vi.setSystemTime(NOW);
  });

  it('a move cancels the old appointment and books a new one, each with its event; a clash leaves both as they were', async () => {
    const a = await bookAppointment(salon.owner, ws(), booking('2026-12-05T09:00:00+01:00'));
    const blocker = await bookAppointment(salon.owner, ws(), booking('2026-12-05T15:00:00+01:00'));
    const res = await patchAppointment(
      new Request('http://test', { method: 'PATCH', headers: await bearer(salon.member), body: JSON.stringify({ startsAt: '2026-12-05T15:00:00+01:00' }) }),
      { params: Promise.resolve({ workspaceId: ws(), appointmentId: a.id }) },
    );
    expect(res.status).toBe(409);
    const [still] = await q(`select status from public.appointments where id = $1`, [a.id]);
    expect(still!.status).toBe('booked');

    const moved = await changeAppointment(salon.member, ws(), a.id, { startsAt: '2026-12-05T12:00:00+01:00' });
    expect(moved).toMatchObject({ status: 'booked', customer_id: refs.customerId, starts_at: new Date('2026-12-05T11:00:00Z') });
    expect(moved.id).not.toBe(a.id);
    const [old] = await q(`select status, cancelled_at from public.appointments where id = $1`, [a.id]);
    expect(old).toMatchObject({ status: 'cancelled', cancelled_at: NOW });
    // Its own booking earlier, and its cancellation now.
    expect(await eventsFor(a.id)).toEqual(['booking/cancelled', 'booking/created']);
    expect(await eventsFor(moved.id)).toEqual(['booking/created']);
    expect(await eventsFor(blocker.id)).toEqual(['booking/created']);

    const bad = await patchAppointment(
      new Request('http://test', { method: 'PATCH', headers: await bearer(), body: JSON.stringify({ status: 'cancelled', startsAt: WEDNESDAY_10 }) }),
      { params: Promise.resolve({ workspaceId: ws(), appointmentId: moved.id }) },
    );
    expect(bad.status).toBe(422);
  });
});
