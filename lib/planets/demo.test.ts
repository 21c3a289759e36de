import { describe, expect, it } from 'vitest';
import { BOOKED_AHEAD_DAYS, DEMO_SEED, FUTURE_DAYS, HISTORY_DAYS, OPEN_WEEKDAYS, generateDemoData, type DemoData } from './demo';

const minutes = (t: string) => Date.parse(`${t}Z`) / 60_000;
const dayOffset = (t: string, today: string) => Math.floor((minutes(t) - minutes(`${today}T00:00:00`)) / 1440);
const isoWeekday = (t: string) => ((new Date(`${t.slice(0, 10)}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
const clock = (t: string) => t.slice(11, 16);

// A Monday, a Saturday, and the Sunday Italy moves to summer time.
const TODAYS = ['2026-11-30', '2026-06-13', '2026-03-29'];

describe('generateDemoData', () => {
  it('is deterministic: the same seed and day give the same rows, another seed other rows', () => {
    const a = generateDemoData(DEMO_SEED, '2026-11-30');
    expect(generateDemoData(DEMO_SEED, '2026-11-30')).toEqual(a);
    expect(generateDemoData(DEMO_SEED + 1, '2026-11-30').appointments).not.toEqual(a.appointments);
  });

  it('rejects a today that is not a local date', () => {
    expect(() => generateDemoData(DEMO_SEED, '2026-11-30T10:00')).toThrow(/YYYY-MM-DD/);
  });

  describe.each(TODAYS)('anchored on %s', (today) => {
    const data: DemoData = generateDemoData(DEMO_SEED, today);
    const appts = data.appointments;

    it('has the salon: six services, four staff, Tuesday to Saturday 9–19, about 300 customers', () => {
      expect(data.services.map((s) => s.name)).toEqual(expect.arrayContaining(['Taglio donna', 'Piega', 'Colore', 'Balayage']));
      expect(data.staff).toHaveLength(4);
      expect(data.openingHours).toEqual(OPEN_WEEKDAYS.map((weekday) => ({ weekday, opens: '09:00', closes: '19:00' })));
      expect(data.customers).toHaveLength(300);
      for (const c of data.customers) {
        expect(c.name).toMatch(/^[A-Z][a-z]+ [A-Z][A-Za-z' ]+$/);
        if (c.email) expect(c.email).toMatch(/^[a-z]+\.[a-z]+\d*@example\.(com|net|org)$/);
        if (c.phone) expect(c.phone).toMatch(/^\+39 399 \d{3} \d{4}$/);
        expect(c.createdAt <= data.reference).toBe(true);
      }
      expect(data.customers.filter((c) => c.vip).length).toBeGreaterThan(3);
      expect(data.customers.filter((c) => c.consentMarketing).length).toBeGreaterThan(100);
    });

    it('covers the last 120 days and the next 14; further ahead only visits booked at checkout', () => {
      const offsets = appts.map((a) => dayOffset(a.startsAt, today));
      expect(Math.min(...offsets)).toBeGreaterThanOrEqual(-HISTORY_DAYS);
      expect(Math.min(...offsets)).toBeLessThan(-HISTORY_DAYS + 7);
      expect(Math.max(...offsets)).toBeLessThanOrEqual(BOOKED_AHEAD_DAYS);
      expect(offsets.filter((d) => d > FUTURE_DAYS - 7 && d <= FUTURE_DAYS).length).toBeGreaterThan(5);
      expect(appts.length).toBeGreaterThan(900);
      const byCustomer = (c: number) => appts.filter((a) => a.customer === c).sort((x, y) => (x.startsAt < y.startsAt ? -1 : 1));
      for (const a of appts.filter((x) => dayOffset(x.startsAt, today) > FUTURE_DAYS)) {
        const history = byCustomer(a.customer);
        const before = history[history.indexOf(a) - 1]!;
        expect(before.status).toBe('completed');
        expect(minutes(a.createdAt) - minutes(before.endsAt)).toBeLessThanOrEqual(15);
      }
      // The next open day already has bookings (the reminder flow's work for tomorrow).
      const nextOpen = [1, 2, 3].find((d) => appts.some((a) => dayOffset(a.startsAt, today) === d))!;
      expect(appts.filter((a) => dayOffset(a.startsAt, today) === nextOpen && a.status !== 'cancelled').length).toBeGreaterThan(3);
    });

    it('keeps appointments inside opening hours, with the service’s duration and price', () => {
      for (const a of appts) {
        expect(OPEN_WEEKDAYS).toContain(isoWeekday(a.startsAt));
        expect(a.startsAt.slice(0, 10)).toBe(a.endsAt.slice(0, 10));
        expect(clock(a.startsAt) >= '09:00' && clock(a.endsAt) <= '19:00', `${a.startsAt}–${a.endsAt}`).toBe(true);
        expect(minutes(a.endsAt) - minutes(a.startsAt)).toBe(data.services[a.service]!.durationMinutes);
        expect(a.priceCents).toBe(data.services[a.service]!.priceCents);
      }
    });

    it('never double-books a stylist or a customer', () => {
      const overlaps = (key: (a: (typeof appts)[number]) => number) => {
        const groups = new Map<number, typeof appts>();
        for (const a of appts) groups.set(key(a), [...(groups.get(key(a)) ?? []), a]);
        let found = 0;
        for (const list of groups.values()) {
          const sorted = [...list].sort((x, y) => minutes(x.startsAt) - minutes(y.startsAt));
          for (let i = 1; i < sorted.length; i++) if (minutes(sorted[i]!.startsAt) < minutes(sorted[i - 1]!.endsAt)) found++;
        }
        return found;
      };
      expect(overlaps((a) => a.staff)).toBe(0);
      expect(overlaps((a) => a.customer)).toBe(0);
    });

    it('has realistic outcomes: history completed, ~8% no-shows, some cancellations; the future only booked', () => {
      const past = appts.filter((a) => a.startsAt < `${today}T00:00:00`);
      const future = appts.filter((a) => a.startsAt >= `${today}T00:00:00`);
      for (const a of past) expect(['completed', 'no_show', 'cancelled']).toContain(a.status);
      for (const a of future) expect(['booked', 'confirmed', 'cancelled']).toContain(a.status);
      const count = (s: string) => past.filter((a) => a.status === s).length;
      const noShowRate = count('no_show') / (count('no_show') + count('completed'));
      expect(noShowRate).toBeGreaterThan(0.05);
      expect(noShowRate).toBeLessThan(0.12);
      const cancellationRate = count('cancelled') / past.length;
      expect(cancellationRate).toBeGreaterThan(0.05);
      expect(cancellationRate).toBeLessThan(0.15);
    });

    it('books before the reference time, cancels between booking and start, reminds 24 h before', () => {
      for (const a of appts) {
        expect(a.createdAt <= data.reference && a.createdAt < a.startsAt).toBe(true);
        expect(a.status === 'cancelled').toBe(a.cancelledAt !== null);
        if (a.cancelledAt) expect(a.cancelledAt > a.createdAt && a.cancelledAt <= data.reference && a.cancelledAt < a.startsAt).toBe(true);
        if (a.reminderSentAt) expect(minutes(a.startsAt) - minutes(a.reminderSentAt)).toBe(1440);
      }
      // Tomorrow's reminders are still to be sent: the reminder flow has work.
      expect(appts.some((a) => a.startsAt > data.reference && a.status !== 'cancelled' && a.reminderSentAt === null)).toBe(true);
    });

    it('gives each regular a personal cadence to learn from, and some customers who lapsed', () => {
      const visits = new Map<number, number[]>();
      for (const a of appts.filter((x) => x.status === 'completed')) visits.set(a.customer, [...(visits.get(a.customer) ?? []), minutes(a.startsAt)]);
      const learnable = [...visits.values()].filter((v) => v.length >= 3);
      expect(learnable.length).toBeGreaterThan(100);
      const gaps = learnable.map((v) => (Math.max(...v) - Math.min(...v)) / (v.length - 1) / 1440);
      expect(Math.min(...gaps)).toBeLessThan(15);
      expect(Math.max(...gaps)).toBeGreaterThan(35);
      const now = minutes(data.reference);
      const hasFuture = new Set(appts.filter((a) => a.startsAt > data.reference && a.status !== 'cancelled').map((a) => a.customer));
      const lapsed = [...visits.entries()].filter(([c, v]) => {
        const gap = (Math.max(...v) - Math.min(...v)) / (v.length - 1);
        return v.length >= 3 && !hasFuture.has(c) && now - Math.max(...v) > 1.25 * gap;
      });
      expect(lapsed.length).toBeGreaterThan(5);
    });

    it('puts waitlist entries whose window fits a freed slot', () => {
      const freed = appts.filter((a) => a.status === 'cancelled' && a.startsAt > data.reference);
      expect(freed.length).toBeGreaterThanOrEqual(3);
      const fitting = data.waitlist.filter(
        (w) =>
          w.status === 'waiting' &&
          freed.some(
            (slot) =>
              w.windowStart <= slot.startsAt &&
              slot.endsAt <= w.windowEnd &&
              data.services[w.service]!.durationMinutes <= minutes(slot.endsAt) - minutes(slot.startsAt),
          ),
      );
      expect(fitting.length).toBeGreaterThanOrEqual(3);
      expect(new Set(data.waitlist.map((w) => w.status))).toEqual(new Set(['waiting', 'offered', 'booked', 'expired']));
      for (const w of data.waitlist) expect(w.windowStart < w.windowEnd && w.createdAt <= data.reference).toBe(true);
    });

    it('has leads from every source, a pipeline with stale deals, posts, campaigns and daily site stats', () => {
      expect(new Set(data.leads.map((l) => l.source))).toEqual(new Set(['instagram', 'google', 'referral', 'walk_in', 'website']));
      for (const l of data.leads) expect(l.email !== null || l.phone !== null).toBe(true);
      expect(data.pipelineStages.map((s) => s.name)).toEqual(['Nuovo contatto', 'Preventivo', 'Trattativa', 'Vinto']);
      const staleBefore = minutes(data.reference) - 14 * 1440;
      expect(data.deals.filter((d) => d.status === 'open' && minutes(d.lastActivityAt) < staleBefore).length).toBeGreaterThanOrEqual(3);
      for (const d of data.deals) expect(d.status === 'open').toBe(d.closedAt === null);
      expect(data.posts.filter((p) => p.status === 'published').length).toBeGreaterThan(30);
      expect(data.campaigns.filter((c) => c.status === 'sent').length).toBeGreaterThan(5);
      expect(data.siteDailyStats).toHaveLength(HISTORY_DAYS);
      expect(data.siteDailyStats.at(-1)!.day < today).toBe(true);
    });
  });

  it('scales for benchmarks', () => {
    const big = generateDemoData(7, '2026-11-30', { customers: 2000, staff: 16 });
    expect(big.customers).toHaveLength(2000);
    expect(big.staff).toHaveLength(16);
    expect(big.appointments.length).toBeGreaterThan(6000);
  });
});
