import { beforeAll, describe, expect, it } from 'vitest';
import { asService } from '@/lib/db';
import { seedDemo } from '@/lib/demo';
import { setupTestDatabase } from '@/test/db';
import { PLANETS, computeAllPlanets, computePlanetMetrics, computePulse } from '.';

setupTestDatabase();

const TABLES = [
  'services', 'staff', 'opening_hours', 'customers', 'appointments', 'waitlist_entries', 'leads', 'pipeline_stages', 'deals',
  'posts', 'campaigns', 'site_daily_stats',
];

let workspaceId: string;

beforeAll(async () => {
  const demo = await seedDemo();
  workspaceId = demo!.workspaceId;
});

const one = <T>(sql: string, params: unknown[] = []) => asService((tx) => tx.query<T>(sql, params)).then((rows) => rows[0]!);

describe('the Studio Aurora demo data in the database', () => {
  it('fills every planet table', async () => {
    for (const table of TABLES) {
      const { n } = await one<{ n: number }>(`select count(*)::int as n from public.${table} where workspace_id = $1`, [workspaceId]);
      expect(n, table).toBeGreaterThan(0);
    }
  });

  it('keeps every appointment inside the opening hours, read in Europe/Rome', async () => {
    const { outside } = await one<{ outside: number }>(
      `select count(*)::int as outside from public.appointments a
        where a.workspace_id = $1 and not exists (
          select 1 from public.opening_hours h
           where h.workspace_id = a.workspace_id
             and h.weekday = extract(isodow from a.starts_at at time zone 'Europe/Rome')
             and (a.starts_at at time zone 'Europe/Rome')::time >= h.opens
             and (a.ends_at at time zone 'Europe/Rome')::time <= h.closes
             and (a.starts_at at time zone 'Europe/Rome')::date = (a.ends_at at time zone 'Europe/Rome')::date)`,
      [workspaceId],
    );
    expect(outside).toBe(0);
  });

  it('never double-books a stylist, and durations match the services', async () => {
    const { overlaps } = await one<{ overlaps: number }>(
      `select count(*)::int as overlaps from public.appointments a
         join public.appointments b on b.workspace_id = a.workspace_id and b.staff_id = a.staff_id and b.id <> a.id
          and b.starts_at < a.ends_at and a.starts_at < b.ends_at
        where a.workspace_id = $1 and a.status <> 'cancelled' and b.status <> 'cancelled'`,
      [workspaceId],
    );
    expect(overlaps).toBe(0);
    const { wrong } = await one<{ wrong: number }>(
      `select count(*)::int as wrong from public.appointments a join public.services s on s.id = a.service_id
        where a.workspace_id = $1 and a.ends_at - a.starts_at <> make_interval(mins => s.duration_minutes)`,
      [workspaceId],
    );
    expect(wrong).toBe(0);
  });

  it('keeps the customers’ visit statistics equal to their completed appointments', async () => {
    const { mismatched, learnable } = await one<{ mismatched: number; learnable: number }>(
      `select count(*) filter (where (c.visit_count, c.first_visit_at, c.last_visit_at) is distinct from (s.n, s.first_at, s.last_at))::int as mismatched,
              count(*) filter (where c.visit_count >= 3)::int as learnable
         from public.customers c
         cross join lateral (select count(*)::int as n, min(starts_at) as first_at, max(starts_at) as last_at
                               from public.appointments a where a.customer_id = c.id and a.status = 'completed') s
        where c.workspace_id = $1`,
      [workspaceId],
    );
    expect(mismatched).toBe(0);
    expect(learnable).toBeGreaterThan(100);
  });

  it('gives every planet metrics and a health, and a pulse that agrees with the planets', async () => {
    const options = { now: new Date(), timeZone: 'Europe/Rome' };
    const { pulse, planets } = await asService((tx) => computeAllPlanets(tx, workspaceId, options));
    expect(planets.map((p) => p.planet)).toEqual([...PLANETS]);
    for (const r of planets) {
      expect(['good', 'watch', 'act']).toContain(r.health);
      expect(r.health === 'good').toBe(r.reasons.length === 0);
      expect(r).toEqual(await asService((tx) => computePlanetMetrics(tx, workspaceId, r.planet, options)));
    }
    const booking = planets.find((r) => r.planet === 'booking')!.metrics;
    const crm = planets.find((r) => r.planet === 'crm')!.metrics;
    expect(booking.no_show_rate_30d!.value).toBeGreaterThan(0.02);
    expect(booking.rebooking_rate_30d!.value).toBeGreaterThan(0.3);
    expect(booking.waitlist_size!.value).toBeGreaterThan(0);
    expect(crm.lapsed_customers!.value).toBeGreaterThan(0);
    expect(crm.average_visit_gap_days!.value).toBeGreaterThan(7);
    expect(await asService((tx) => computePulse(tx, workspaceId, options))).toEqual(pulse);
    console.info('demo health', Object.fromEntries(planets.map((r) => [r.planet, [r.health, ...r.reasons]])), pulse);
  });

  it('goes away with its workspace', async () => {
    await asService((tx) => tx.query(`delete from public.workspaces where id = $1`, [workspaceId]));
    for (const table of TABLES) {
      const { n } = await one<{ n: number }>(`select count(*)::int as n from public.${table} where workspace_id = $1`, [workspaceId]);
      expect(n, table).toBe(0);
    }
  });
});
