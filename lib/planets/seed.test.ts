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

  it('keeps each appointment’s rebooked flag equal to its definition, through reschedules and removals', async () => {
    const mismatched = async () =>
      (
        await one<{ n: number; rebooked: number }>(
          `select count(*) filter (where a.rebooked is distinct from exists (
                    select 1 from public.appointments n
                     where n.workspace_id = a.workspace_id and n.customer_id = a.customer_id
                       and n.starts_at > a.starts_at and n.created_at <= a.ends_at + interval '24 hours'))::int as n,
                  count(*) filter (where a.rebooked)::int as rebooked
             from public.appointments a where a.workspace_id = $1`,
          [workspaceId],
        )
      );
    expect(await mismatched()).toEqual({ n: 0, rebooked: expect.any(Number) });
    expect((await mismatched()).rebooked).toBeGreaterThan(100);
    // Inside a transaction that is rolled back: move every customer's last appointment before their
    // first (a reschedule), and remove the appointments booked at checkout of a few visits.
    const rollback = new Error('rollback');
    const during = await asService(async (tx) => {
      await tx.query(
        `update public.appointments a set starts_at = f.first - interval '30 days', ends_at = f.first - interval '30 days' + (a.ends_at - a.starts_at)
           from (select customer_id, min(starts_at) as first, max(starts_at) as last from public.appointments where workspace_id = $1 group by 1) f
          where a.workspace_id = $1 and a.customer_id = f.customer_id and a.starts_at = f.last and f.last > f.first`,
        [workspaceId],
      );
      await tx.query(
        `delete from public.appointments n using public.appointments a
          where a.workspace_id = $1 and n.workspace_id = $1 and n.customer_id = a.customer_id and a.rebooked
            and n.starts_at > a.starts_at and n.created_at <= a.ends_at + interval '24 hours'
            and a.id in (select id from public.appointments where workspace_id = $1 and rebooked order by id limit 20)`,
        [workspaceId],
      );
      const [row] = await tx.query<{ n: number }>(
        `select count(*) filter (where a.rebooked is distinct from exists (
                  select 1 from public.appointments n
                   where n.workspace_id = a.workspace_id and n.customer_id = a.customer_id
                     and n.starts_at > a.starts_at and n.created_at <= a.ends_at + interval '24 hours'))::int as n
           from public.appointments a where a.workspace_id = $1`,
        [workspaceId],
      );
      throw Object.assign(rollback, { row });
    }).catch((error: Error & { row?: { n: number } }) => {
      if (error !== rollback) throw error;
      return error.row!;
    });
    expect(during).toEqual({ n: 0 });
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
  });

  it('goes away with its workspace', async () => {
    await asService((tx) => tx.query(`delete from public.workspaces where id = $1`, [workspaceId]));
    for (const table of TABLES) {
      const { n } = await one<{ n: number }>(`select count(*)::int as n from public.${table} where workspace_id = $1`, [workspaceId]);
      expect(n, table).toBe(0);
    }
  });
});
