import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadSectorBenchmark } from '@/lib/knowledge';
import { asService, type Tx } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { MIN_SAMPLE, NEAR_BENCHMARK, WATCH_TOLERANCE, computePlanetMetrics, computePulse, judge, type Planet } from '.';
import { assessHealth } from './health';

setupTestDatabase();

// Wednesday 10 June 2026, 10:00 in Rome (CEST, UTC+2). The ISO week began Monday 8 June 00:00 Rome
// = 2026-06-07T22:00Z; last week began 2026-05-31T22:00Z; "last week so far" ends 2026-06-03T08:00Z.
const NOW = new Date('2026-06-10T08:00:00Z');
const ROME = { now: NOW, timeZone: 'Europe/Rome' };

interface Salon {
  id: string;
  service: string;
  staff: string;
  customer: (name: string, createdAt?: string) => Promise<string>;
  appointment: (customer: string, startsAt: string, status: string, extra?: { createdAt?: string; cancelledAt?: string }) => Promise<void>;
}

/** A hair salon in Rome: one 60-minute €50 service, two active stylists and one retired, open Tue–Sat 9–19. */
async function salon(tx: Tx, sector = 'hair_salon'): Promise<Salon> {
  const [user] = await tx.query<{ id: string }>(`insert into auth.users (email) values ($1) returning id`, [`${randomUUID()}@example.test`]);
  const [ws] = await tx.query<{ id: string }>(
    `insert into public.workspaces (name, owner_id, time_zone, sector) values ('Salon', $1, 'Europe/Rome', $2) returning id`,
    [user!.id, sector],
  );
  const id = ws!.id;
  const [service] = await tx.query<{ id: string }>(
    `insert into public.services (workspace_id, name, duration_minutes, price_cents) values ($1, 'Taglio', 60, 5000) returning id`,
    [id],
  );
  const [staff] = await tx.query<{ id: string }>(
    `insert into public.staff (workspace_id, name, active) values ($1, 'A', true), ($1, 'B', true), ($1, 'C', false) returning id`,
    [id],
  );
  await tx.query(`insert into public.opening_hours (workspace_id, weekday, opens, closes) select $1, d, '09:00', '19:00' from generate_series(2, 6) d`, [id]);
  return {
    id,
    service: service!.id,
    staff: staff!.id,
    async customer(name, createdAt = '2025-01-01T10:00:00Z') {
      const [c] = await tx.query<{ id: string }>(`insert into public.customers (workspace_id, name, created_at) values ($1, $2, $3) returning id`, [id, name, createdAt]);
      return c!.id;
    },
    async appointment(customer, startsAt, status, extra = {}) {
      const createdAt = extra.createdAt ?? new Date(Date.parse(startsAt) - 7 * 86_400_000).toISOString();
      const cancelledAt = status === 'cancelled' ? (extra.cancelledAt ?? new Date(Date.parse(startsAt) - 86_400_000).toISOString()) : null;
      await tx.query(
        `insert into public.appointments (workspace_id, customer_id, service_id, staff_id, starts_at, ends_at, status, price_cents, created_at, cancelled_at)
         values ($1, $2, $3, $4, $5::timestamptz, $5::timestamptz + interval '60 minutes', $6, 5000, $7, $8)`,
        [id, customer, service!.id, staff!.id, startsAt, status, createdAt, cancelledAt],
      );
    },
  };
}

/** Runs `fn` in a transaction that is rolled back, so each test starts from an empty database. */
async function scenario<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  const rollback = new Error('rollback');
  let result: T | undefined;
  await asService(async (tx) => {
    result = await fn(tx);
    throw rollback;
  }).catch((error) => {
    if (error !== rollback) throw error;
  });
  return result!;
}

describe('"today" and "this week" follow the workspace time zone', () => {
  it('counts 23:30 UTC as the next day in Rome, and the Monday 00:30 Rome booking in this week', async () => {
    const result = await scenario(async (tx) => {
      const s = await salon(tx);
      const c = await s.customer('Anna');
      await s.appointment(c, '2026-06-09T21:30:00Z', 'booked'); // 9 June 23:30 Rome: yesterday in Rome, yesterday in UTC
      await s.appointment(c, '2026-06-09T23:30:00Z', 'booked'); // 10 June 01:30 Rome: today in Rome, yesterday in UTC
      await s.appointment(c, '2026-06-10T15:00:00Z', 'booked'); // today in both
      await s.appointment(c, '2026-06-10T12:00:00Z', 'cancelled'); // today, but cancelled: not a booking
      await s.appointment(c, '2026-06-10T22:30:00Z', 'booked'); // 11 June 00:30 Rome: tomorrow in Rome, today in UTC
      await s.appointment(c, '2026-06-10T22:45:00Z', 'booked'); // same
      await s.appointment(c, '2026-06-07T22:30:00Z', 'booked'); // Monday 8 June 00:30 Rome: this week; Sunday in UTC
      await s.appointment(c, '2026-06-03T10:00:00Z', 'booked'); // the same weekday last week
      return {
        rome: await computePulse(tx, s.id, ROME),
        utc: await computePulse(tx, s.id, { now: NOW, timeZone: 'UTC' }),
        booking: await computePlanetMetrics(tx, s.id, 'booking', ROME),
        bookingUtc: await computePlanetMetrics(tx, s.id, 'booking', { now: NOW, timeZone: 'UTC' }),
      };
    });
    expect(result.rome.bookingsToday).toBe(2);
    expect(result.utc.bookingsToday).toBe(3);
    expect(result.booking.metrics.bookings_today).toEqual({ value: 2, unit: 'count', previous: 1, changePct: 100 });
    // Rome's week: 9 June ×2, 10 June ×1 (+1 cancelled), 11 June ×2, Monday 00:30 → 6. UTC's week starts Monday 8 June 00:00 UTC.
    expect(result.booking.metrics.bookings_week!.value).toBe(6);
    expect(result.bookingUtc.metrics.bookings_week!.value).toBe(5);
  });
});

describe('metrics on a hand-made dataset', () => {
  it('booking: exact counts, rates, occupancy, revenue and waitlist', async () => {
    const { booking, pulse } = await scenario(async (tx) => {
      const s = await salon(tx);
      const [c1, c2, c3] = [await s.customer('C1'), await s.customer('C2'), await s.customer('C3')];
      // C1 rebooks at checkout both times.
      await s.appointment(c1, '2026-05-20T08:00:00Z', 'completed', { createdAt: '2026-05-13T10:00:00Z' });
      await s.appointment(c1, '2026-06-09T08:00:00Z', 'completed', { createdAt: '2026-05-20T09:05:00Z' });
      await s.appointment(c1, '2026-06-11T08:00:00Z', 'booked', { createdAt: '2026-06-09T12:00:00Z' });
      // C2 books each visit days later: never rebooked.
      await s.appointment(c2, '2026-05-21T08:00:00Z', 'completed', { createdAt: '2026-05-15T10:00:00Z' });
      await s.appointment(c2, '2026-06-02T08:00:00Z', 'completed', { createdAt: '2026-05-30T10:00:00Z' });
      await s.appointment(c2, '2026-06-10T07:00:00Z', 'completed', { createdAt: '2026-06-05T10:00:00Z' }); // today 09:00 Rome
      // C3 misses twice, then comes, then cancels twice (one ahead was booked before the visit: rebooked).
      await s.appointment(c3, '2026-05-22T08:00:00Z', 'no_show');
      await s.appointment(c3, '2026-05-29T08:00:00Z', 'no_show');
      await s.appointment(c3, '2026-06-04T08:00:00Z', 'completed', { createdAt: '2026-06-01T10:00:00Z' }); // last week, after "so far"
      await s.appointment(c3, '2026-06-05T08:00:00Z', 'cancelled', { createdAt: '2026-05-25T10:00:00Z', cancelledAt: '2026-06-04T18:00:00Z' });
      await s.appointment(c3, '2026-06-12T08:00:00Z', 'cancelled', { createdAt: '2026-06-04T09:30:00Z', cancelledAt: '2026-06-09T18:00:00Z' });
      // Waitlist: two open entries count; an expired one and one whose window has passed do not.
      await tx.query(
        `insert into public.waitlist_entries (workspace_id, customer_id, service_id, window_start, window_end, status) values
           ($1, $2, $3, '2026-06-11T07:00Z', '2026-06-11T17:00Z', 'waiting'),
           ($1, $2, $3, '2026-06-12T07:00Z', '2026-06-12T17:00Z', 'offered'),
           ($1, $2, $3, '2026-06-12T07:00Z', '2026-06-12T17:00Z', 'expired'),
           ($1, $2, $3, '2026-06-01T07:00Z', '2026-06-02T17:00Z', 'waiting')`,
        [s.id, c2, s.service],
      );
      return { booking: await computePlanetMetrics(tx, s.id, 'booking', ROME), pulse: await computePulse(tx, s.id, ROME) };
    });
    const m = booking.metrics;
    // Today (10 June, Rome): C2 at 09:00. Same weekday last week (3 June): nothing.
    expect(m.bookings_today).toEqual({ value: 1, unit: 'count', previous: 0, changePct: null });
    // This week: 9, 10, 11 June (12 June is cancelled). Last week: 2 and 4 June (5 June cancelled).
    expect(m.bookings_week).toEqual({ value: 3, unit: 'count', previous: 2, changePct: 50 });
    // 180 and 120 booked minutes against 5 days × 600 minutes × 2 active stylists.
    expect(m.occupancy_week).toEqual({ value: 0.03, unit: 'ratio', previous: 0.02, changePct: 50 });
    // Last 30 days: 6 completed, 2 no-shows, 1 cancelled (9 appointments).
    expect(m.no_show_rate_30d).toEqual({ value: 0.25, unit: 'ratio', benchmark: 0.07 });
    expect(m.cancellation_rate_30d!.value).toBeCloseTo(1 / 9, 10);
    // Rebooked: C1's two visits and C3's (its next one was booked before it); C2's three were not.
    expect(m.rebooking_rate_30d).toEqual({ value: 0.5, unit: 'ratio', benchmark: 0.52 });
    expect(m.waitlist_size).toEqual({ value: 2, unit: 'count' });
    // Takings of this week's finished days (Monday 8 and Tuesday 9 June): 9 June. Today's completed visit
    // waits for tomorrow. The same days of last week: 2 June (4 June is a Thursday).
    expect(m.revenue_week).toEqual({ value: 5000, unit: 'cents', previous: 5000, changePct: 0 });
    // The whole week as booked: 9 and 10 June completed, 11 June booked; 12 June is cancelled.
    expect(m.booked_value_week).toEqual({ value: 15000, unit: 'cents' });
    expect(m.average_ticket_30d).toEqual({ value: 5000, unit: 'cents', benchmark: 4500 });
    expect(pulse).toEqual({ bookingsToday: 1, newLeads7d: 0, revenueThisWeekCents: 5000, revenueLastWeekCents: 5000, revenueChangePct: 0, bookedThisWeekCents: 15000 });
    // 8 kept-or-missed visits and 6 completed ones are below the minimum sample: no verdict yet.
    expect(booking.health).toBe('good');
    expect(booking.reasons).toEqual([]);
  });

  it('pulse: on a Tuesday morning of a salon closed on Mondays there is no revenue to compare, only what is booked', async () => {
    // Tuesday 9 June 2026, 09:05 in Rome: the 09:00 client is in the chair, not checked out yet.
    const tuesday = { now: new Date('2026-06-09T07:05:00Z'), timeZone: 'Europe/Rome' };
    const { pulse, booking } = await scenario(async (tx) => {
      const s = await salon(tx);
      const c = await s.customer('C');
      await s.appointment(c, '2026-06-02T07:00:00Z', 'completed'); // last Tuesday 09:00, checked out
      await s.appointment(c, '2026-06-02T09:00:00Z', 'completed'); // last Tuesday 11:00
      await s.appointment(c, '2026-06-09T07:00:00Z', 'confirmed'); // today 09:00, in progress
      await s.appointment(c, '2026-06-09T09:00:00Z', 'booked'); // today 11:00
      await s.appointment(c, '2026-06-11T08:00:00Z', 'booked'); // Thursday
      await s.appointment(c, '2026-06-12T08:00:00Z', 'cancelled'); // Friday, cancelled: not booked value
      return { pulse: await computePulse(tx, s.id, tuesday), booking: await computePlanetMetrics(tx, s.id, 'booking', tuesday) };
    });
    // "Monday 00:00 until now" against "last Monday 00:00 until last Tuesday 09:05" read €0 against €50:
    // −100%. The finished days of the week (a closed Monday) against last Monday: nothing to compare.
    expect(pulse).toEqual({ bookingsToday: 2, newLeads7d: 0, revenueThisWeekCents: 0, revenueLastWeekCents: 0, revenueChangePct: null, bookedThisWeekCents: 15000 });
    expect(booking.metrics.revenue_week).toEqual({ value: 0, unit: 'cents', previous: 0, changePct: null });
    expect(booking.metrics.booked_value_week!.value).toBe(15000);
  });

  it('pulse: from Wednesday the week’s finished days are compared with the same days of last week', async () => {
    // Wednesday 10 June 07:30 in Rome: Tuesday is closed and counted; last week's Tuesday too.
    const wednesday = { now: new Date('2026-06-10T05:30:00Z'), timeZone: 'Europe/Rome' };
    const pulse = await scenario(async (tx) => {
      const s = await salon(tx);
      const c = await s.customer('C');
      await s.appointment(c, '2026-06-02T07:00:00Z', 'completed'); // last Tuesday
      await s.appointment(c, '2026-06-02T09:00:00Z', 'completed'); // last Tuesday
      await s.appointment(c, '2026-06-03T07:00:00Z', 'completed'); // last Wednesday: not yet comparable
      await s.appointment(c, '2026-06-09T07:00:00Z', 'completed'); // yesterday
      await s.appointment(c, '2026-06-09T09:00:00Z', 'no_show'); // yesterday, missed: no takings
      return computePulse(tx, s.id, wednesday);
    });
    expect(pulse).toMatchObject({ revenueThisWeekCents: 5000, revenueLastWeekCents: 10000, revenueChangePct: -50, bookedThisWeekCents: 5000 });
  });

  it('crm: active, new, lapsed customers, visit gap, leads and conversion', async () => {
    const { crm, pulse } = await scenario(async (tx) => {
      const s = await salon(tx);
      const c1 = await s.customer('C1', '2026-05-01T10:00:00Z'); // joined in the 30 days before the last 30
      const c2 = await s.customer('C2', '2026-06-01T10:00:00Z'); // joined in the last 30 days
      const lapsed = await s.customer('Lapsed');
      const loyal = await s.customer('Loyal');
      await s.appointment(c1, '2026-05-20T08:00:00Z', 'completed');
      await s.appointment(c1, '2026-06-09T08:00:00Z', 'completed'); // 2 visits, 20 days apart
      await s.appointment(c2, '2026-06-02T08:00:00Z', 'completed');
      await s.appointment(c2, '2026-06-06T08:00:00Z', 'no_show'); // not a visit
      for (const who of [lapsed, loyal]) {
        // Every 14 days in March, then nothing for 73 days: far past their own gap…
        for (const day of ['01', '15', '29']) await s.appointment(who, `2026-03-${day}T09:00:00Z`, 'completed');
      }
      // …but Loyal has a visit booked, so is not lapsed.
      await s.appointment(loyal, '2026-06-20T08:00:00Z', 'booked');
      await tx.query(
        `insert into public.leads (workspace_id, name, phone, source, status, created_at) values
           ($1, 'L1', '+39 399 000 0001', 'instagram', 'new', '2026-06-09T10:00Z'),
           ($1, 'L2', '+39 399 000 0002', 'google', 'contacted', '2026-06-05T10:00Z'),
           ($1, 'L3', '+39 399 000 0003', 'referral', 'converted', '2026-06-02T10:00Z'),
           ($1, 'L4', '+39 399 000 0004', 'walk_in', 'lost', '2026-01-10T10:00Z')`,
        [s.id],
      );
      return { crm: await computePlanetMetrics(tx, s.id, 'crm', ROME), pulse: await computePulse(tx, s.id, ROME) };
    });
    const m = crm.metrics;
    // Active: a visit in the last max(90, 2 × 50) = 100 days, i.e. since 2 March: C1, C2, and both March regulars.
    expect(m.active_customers!.value).toBe(4);
    expect(m.new_customers_30d).toEqual({ value: 1, unit: 'count', previous: 1, changePct: 0 });
    expect(m.lapsed_customers!.value).toBe(1);
    // Gaps of customers with two visits or more: C1 20 days, the March regulars 14 each → 16 days.
    expect(m.average_visit_gap_days).toEqual({ value: 16, unit: 'days', benchmark: 50 });
    // Leads in the last 7 days: 9 and 5 June; the 7 before: 2 June. In 90 days: 3, one converted.
    expect(m.leads_7d).toEqual({ value: 2, unit: 'count', previous: 1, changePct: 100 });
    expect(m.lead_conversion_90d!.value).toBeCloseTo(1 / 3, 10);
    expect(pulse.newLeads7d).toBe(2);
  });

  it('sales: pipeline value, weighted value, stale deals, won this month, win rate', async () => {
    const sales = await scenario(async (tx) => {
      const s = await salon(tx);
      const [first, quote] = await tx.query<{ id: string }>(
        `insert into public.pipeline_stages (workspace_id, name, position, probability) values ($1, 'Nuovo', 1, 10), ($1, 'Preventivo', 2, 50) returning id`,
        [s.id],
      );
      await tx.query(
        `insert into public.deals (workspace_id, title, stage_id, value_cents, status, last_activity_at, closed_at) values
           ($1, 'Active', $3, 100000, 'open', '2026-06-09T10:00Z', null),
           ($1, 'Stale', $2, 50000, 'open', '2026-05-20T10:00Z', null),
           ($1, 'Won in June', $3, 200000, 'won', '2026-06-05T10:00Z', '2026-06-05T10:00Z'),
           ($1, 'Won early May', $3, 30000, 'won', '2026-05-02T10:00Z', '2026-05-02T10:00Z'),
           ($1, 'Won late May', $3, 70000, 'won', '2026-05-20T10:00Z', '2026-05-20T10:00Z'),
           ($1, 'Lost in April', $2, 10000, 'lost', '2026-04-01T10:00Z', '2026-04-01T10:00Z'),
           ($1, 'Lost long ago', $2, 10000, 'lost', '2026-01-01T10:00Z', '2026-01-01T10:00Z')`,
        [s.id, first!.id, quote!.id],
      );
      return computePlanetMetrics(tx, s.id, 'sales', ROME);
    });
    const m = sales.metrics;
    expect(m.open_pipeline_value!.value).toBe(150000);
    expect(m.weighted_pipeline_value!.value).toBe(100000 * 0.5 + 50000 * 0.1);
    expect(m.open_deals!.value).toBe(2);
    expect(m.stale_deals!.value).toBe(1);
    expect(m.stale_deal_share!.value).toBe(0.5);
    // June so far vs 1–10 May (10:00): the late-May win is outside both.
    expect(m.won_this_month).toEqual({ value: 200000, unit: 'cents', previous: 30000, changePct: 566.7 });
    // Closed in the last 90 days (since 12 March): 3 won, 1 lost.
    expect(m.win_rate_90d).toEqual({ value: 0.75, unit: 'ratio', benchmark: 0.3 });
  });

  it('content, marketing and web', async () => {
    const result = await scenario(async (tx) => {
      const s = await salon(tx);
      await tx.query(
        `insert into public.posts (workspace_id, channel, title, status, scheduled_at, published_at, reach, engagements) values
           ($1, 'instagram', 'P1', 'published', null, '2026-06-01T10:00Z', 1000, 50),
           ($1, 'facebook', 'P2', 'published', null, '2026-05-20T10:00Z', 500, 10),
           ($1, 'instagram', 'P3', 'published', null, '2026-04-20T10:00Z', 1000, 20),
           ($1, 'instagram', 'P4', 'scheduled', '2026-06-12T16:00Z', null, 0, 0),
           ($1, 'instagram', 'P5', 'scheduled', '2026-06-30T16:00Z', null, 0, 0),
           ($1, 'instagram', 'P6', 'draft', null, null, 0, 0)`,
        [s.id],
      );
      await tx.query(
        `insert into public.campaigns (workspace_id, name, channel, status, sent_at, recipients, opens, clicks, conversions) values
           ($1, 'E1', 'email', 'sent', '2026-06-01T08:00Z', 100, 30, 5, 2),
           ($1, 'S1', 'sms', 'sent', '2026-05-01T08:00Z', 50, 0, 4, 1),
           ($1, 'E2', 'email', 'sent', '2026-04-01T08:00Z', 100, 20, 1, 0),
           ($1, 'Old', 'email', 'sent', '2026-01-01T08:00Z', 100, 90, 90, 90),
           ($1, 'Draft', 'email', 'draft', null, 0, 0, 0, 0)`,
        [s.id],
      );
      // Last 7 complete days (3–9 June) and the 7 before (27 May – 2 June); today's partial row is ignored.
      await tx.query(
        `insert into public.site_daily_stats (workspace_id, day, visits, booking_page_visits, conversions)
         select $1::uuid, d::date, case when d >= '2026-06-03' then 100 else 80 end, case when d >= '2026-06-03' then 20 else 10 end,
                case when d >= '2026-06-03' then 3 else 1 end
           from generate_series('2026-05-27'::date, '2026-06-09'::date, interval '1 day') d
         union all select $1, '2026-06-10', 999, 999, 999`,
        [s.id],
      );
      const get = (planet: Planet) => computePlanetMetrics(tx, s.id, planet, ROME);
      return { content: await get('content'), marketing: await get('marketing'), web: await get('web') };
    });
    expect(result.content.metrics).toEqual({
      posts_published_30d: { value: 2, unit: 'count', previous: 1, changePct: 100 },
      engagement_rate_30d: { value: 0.04, unit: 'ratio', previous: 0.02, changePct: 100, benchmark: 0.04 },
      posts_scheduled_7d: { value: 1, unit: 'count' },
    });
    expect(result.marketing.metrics.campaigns_sent_30d).toEqual({ value: 1, unit: 'count', previous: 1, changePct: 0 });
    expect(result.marketing.metrics.open_rate_90d!.value).toBe(0.25); // (30 + 20) / 200 email recipients
    expect(result.marketing.metrics.click_rate_90d!.value).toBe(0.03); // 6 / 200
    expect(result.marketing.metrics.conversion_rate_90d!.value).toBe(0.012); // 3 / 250, every channel
    expect(result.web.metrics).toEqual({
      visits_7d: { value: 700, unit: 'count', previous: 560, changePct: 25 },
      booking_page_visits_7d: { value: 140, unit: 'count', previous: 70, changePct: 100 },
      booking_conversion_7d: { value: 0.15, unit: 'ratio', previous: 0.1, changePct: 50, benchmark: 0.15 },
    });
    expect(result.web.health).toBe('good');
  });
});

describe('health against the sector benchmark', () => {
  it('judges good within 10% of the target, watch up to 25% worse, act beyond', () => {
    expect(judge(0.07, 0.07, 'lower')).toBe('good');
    expect(judge(0.07 * NEAR_BENCHMARK, 0.07, 'lower')).toBe('good');
    expect(judge(0.078, 0.07, 'lower')).toBe('watch');
    expect(judge(0.07 * WATCH_TOLERANCE, 0.07, 'lower')).toBe('watch');
    expect(judge(0.09, 0.07, 'lower')).toBe('act');
    expect(judge(0.52, 0.52, 'higher')).toBe('good');
    expect(judge(0.48, 0.52, 'higher')).toBe('good');
    expect(judge(0.47, 0.52, 'higher')).toBe('watch');
    expect(judge(0.4, 0.52, 'higher')).toBe('act');
    expect(judge(0, 0.52, 'higher')).toBe('act');
  });

  it('flips a planet when a metric crosses the benchmark, and ignores too small a sample', () => {
    const hair = loadSectorBenchmark('hair_salon');
    const booking = (noShow: number, sample = 40) =>
      assessHealth(
        'booking',
        { no_show_rate_30d: { value: noShow, unit: 'ratio' }, rebooking_rate_30d: { value: 0.6, unit: 'ratio' } },
        { no_show_rate_30d: sample, rebooking_rate_30d: sample },
        hair,
      );
    expect(booking(0.07)).toEqual({ health: 'good', findings: [] });
    expect(booking(0.08)).toEqual({
      health: 'watch',
      findings: [
        { kind: 'level', metric: 'no_show_rate_30d', health: 'watch', value: 0.08, target: 0.07, unit: 'ratio', better: 'lower', against: 'sector', estimate: true },
      ],
    });
    expect(booking(0.2).health).toBe('act');
    expect(booking(0.2, MIN_SAMPLE - 1).health).toBe('good');
    // The same no-show rate is fine for a dental practice, whose benchmark is the healthcare average.
    const dental = assessHealth('booking', { no_show_rate_30d: { value: 0.2, unit: 'ratio' } }, { no_show_rate_30d: 40 }, loadSectorBenchmark('dental'));
    expect(dental.health).toBe('good');
  });

  it('flips on real data: an email open rate just inside and just outside 10% of the beauty benchmark (16.65%)', async () => {
    const [inside, outside] = await scenario(async (tx) => {
      const s = await salon(tx);
      await tx.query(
        `insert into public.campaigns (workspace_id, name, channel, status, sent_at, recipients, opens, clicks, conversions)
         values ($1, 'Newsletter', 'email', 'sent', '2026-06-01T08:00Z', 1000, 152, 20, 5)`,
        [s.id],
      );
      const first = await computePlanetMetrics(tx, s.id, 'marketing', ROME);
      await tx.query(`update public.campaigns set opens = 151 where workspace_id = $1`, [s.id]);
      return [first, await computePlanetMetrics(tx, s.id, 'marketing', ROME)];
    });
    expect(inside.health).toBe('good');
    expect(outside.health).toBe('watch');
    expect(outside.reasons).toEqual(['Email open rate (90 days) at 15.1%, below the hair salon benchmark of 16.7%.']);
  });

  it('says Watch, with the reason, when this week’s bookings fall a third on last week', async () => {
    const booking = await scenario(async (tx) => {
      const s = await salon(tx);
      const c = await s.customer('C');
      const slots = (days: number[], hours: string[], n: number) => days.flatMap((d) => hours.map((h) => `2026-06-${String(d).padStart(2, '0')}T${h}:00:00Z`)).slice(0, n);
      // Confirmed, not completed: no visit is checked out, so only the week-on-week rules can speak.
      for (const at of slots([2, 3, 4, 5, 6], ['07', '09', '11'], 12)) await s.appointment(c, at, 'confirmed');
      for (const at of slots([9, 10, 11, 12, 13], ['07', '09'], 8)) await s.appointment(c, at, 'confirmed');
      return computePlanetMetrics(tx, s.id, 'booking', ROME);
    });
    expect(booking.metrics.bookings_week).toEqual({ value: 8, unit: 'count', previous: 12, changePct: -33.3 });
    expect(booking.health).toBe('watch');
    expect(booking.reasons).toEqual(['Bookings down 33% on last week (8 against 12).', 'Occupancy down 33% on last week (8% against 12%).']);
  });

  it('uses the `other` pack for a workspace whose sector has no pack', async () => {
    const booking = await scenario(async (tx) => {
      const s = await salon(tx, 'submarines');
      return computePlanetMetrics(tx, s.id, 'booking', ROME);
    });
    expect(booking.metrics.no_show_rate_30d!.benchmark).toBe(loadSectorBenchmark('other').figures.noShowRate.value);
  });
});
