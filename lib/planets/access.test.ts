import { beforeAll, describe, expect, it } from 'vitest';
import { asService, withUser, type SessionUser } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { createRlsWorld, type RlsWorld } from '@/test/rls-fixture';
import seedPlanetRows from '@/test/rls-seeders/planets';
import { computePlanetMetrics } from '.';

setupTestDatabase();

let world: RlsWorld;
const ids = { a: {} as Record<string, string>, b: {} as Record<string, string> };

beforeAll(async () => {
  world = await createRlsWorld();
  await asService(async (tx) => {
    for (const [key, ws] of [['a', world.a], ['b', world.b]] as const) {
      await seedPlanetRows(tx, world, ws);
      for (const table of ['customers', 'services', 'staff', 'appointments', 'leads', 'pipeline_stages']) {
        const [row] = await tx.query<{ id: string }>(`select id from public.${table} where workspace_id = $1`, [ws.id]);
        ids[key][table] = row!.id;
      }
    }
  });
});

/** Runs a statement as `user`; resolves to the rows, or to the SQLSTATE of the refusal. */
const attempt = (user: SessionUser, sql: string, params: unknown[]) =>
  withUser(user, (tx) => tx.query(sql, params)).catch((error: { code?: string }) => error.code ?? 'error');

const insertAppointment = `insert into public.appointments (workspace_id, customer_id, service_id, staff_id, starts_at, ends_at, status, price_cents)
  values ($1, $2, $3, $4, now() + interval '3 days', now() + interval '3 days 45 minutes', 'booked', 3800) returning id`;

describe('who may write the planet tables', () => {
  it('lets a member book and edit in their workspace, not in another', async () => {
    const { a, b } = ids;
    expect(await attempt(world.memberA, insertAppointment, [world.a.id, a.customers, a.services, a.staff])).toHaveLength(1);
    expect(await attempt(world.memberA, insertAppointment, [world.b.id, b.customers, b.services, b.staff])).toBe('42501');
    expect(await attempt(world.memberA, `update public.customers set vip = true where id = $1 returning id`, [a.customers])).toHaveLength(1);
    expect(await attempt(world.memberA, `update public.customers set vip = true where id = $1 returning id`, [b.customers])).toEqual([]);
    expect(await attempt(world.memberA, `insert into public.leads (workspace_id, name, email, source) values ($1, 'New', 'n@example.com', 'google') returning id`, [world.a.id])).toHaveLength(1);
  });

  it('keeps service-owned columns out of members’ hands', async () => {
    const { a } = ids;
    expect(await attempt(world.memberA, `update public.appointments set reminder_sent_at = now() where id = $1`, [a.appointments])).toBe('42501');
    expect(await attempt(world.memberA, `update public.customers set visit_count = 99 where id = $1`, [a.customers])).toBe('42501');
    expect(await attempt(world.memberA, `update public.appointments set workspace_id = $2 where id = $1`, [a.appointments, world.b.id])).toBe('42501');
  });

  it('refuses a reference to another workspace’s row, even from someone in both', async () => {
    // ownerB joins workspace A: a member of both could otherwise mix their customers.
    await asService((tx) => tx.query(`insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'member')`, [world.a.id, world.ownerB.id]));
    const { a, b } = ids;
    expect(await attempt(world.ownerB, insertAppointment, [world.a.id, b.customers, a.services, a.staff])).toBe('23503');
  });

  it('leaves configuration to admins and deletions of records to admins', async () => {
    const addService = `insert into public.services (workspace_id, name, duration_minutes, price_cents) values ($1, 'Piega', 30, 2500) returning id`;
    expect(await attempt(world.memberA, addService, [world.a.id])).toBe('42501');
    expect(await attempt(world.adminA, addService, [world.a.id])).toHaveLength(1);
    expect(await attempt(world.memberA, `delete from public.leads where workspace_id = $1 returning id`, [world.a.id])).toEqual([]);
    expect(await attempt(world.adminA, `delete from public.leads where workspace_id = $1 returning id`, [world.a.id])).not.toEqual([]);
    // Appointments are cancelled, never deleted, by anyone in the app.
    expect(await attempt(world.ownerA, `delete from public.appointments where id = $1`, [ids.a.appointments])).toBe('42501');
  });

  it('leaves posts, campaigns and site stats to service code', async () => {
    expect(await attempt(world.ownerA, `insert into public.posts (workspace_id, channel, title) values ($1, 'instagram', 'x')`, [world.a.id])).toBe('42501');
    expect(await attempt(world.ownerA, `update public.campaigns set opens = 1 where workspace_id = $1`, [world.a.id])).toBe('42501');
    expect(await attempt(world.ownerA, `insert into public.site_daily_stats (workspace_id, day) values ($1, current_date - 1)`, [world.a.id])).toBe('42501');
  });

  it('updates the customer’s visit statistics when a member completes an appointment', async () => {
    const { a } = ids;
    await attempt(world.memberA, `update public.appointments set status = 'completed' where id = $1`, [a.appointments]);
    const [customer] = await asService((tx) =>
      tx.query<{ visit_count: number; matches: boolean }>(
        `select c.visit_count, c.last_visit_at = a.starts_at as matches from public.customers c, public.appointments a where c.id = $1 and a.id = $2`,
        [a.customers, a.appointments],
      ),
    );
    expect(customer).toEqual({ visit_count: 1, matches: true });
  });

  it('computes metrics under RLS: a member sees their workspace, a stranger sees nothing', async () => {
    const options = { timeZone: 'Europe/Rome' };
    const asMember = await withUser(world.memberA, (tx) => computePlanetMetrics(tx, world.a.id, 'booking', options));
    const trusted = await asService((tx) => computePlanetMetrics(tx, world.a.id, 'booking', options));
    expect(asMember.metrics).toEqual(trusted.metrics);
    expect(asMember.metrics.waitlist_size!.value).toBe(1);
    const asStranger = await withUser(world.stranger, (tx) => computePlanetMetrics(tx, world.a.id, 'booking', options));
    expect(asStranger.metrics.waitlist_size!.value).toBe(0);
    expect(asStranger.metrics.bookings_week!.value).toBe(0);
  });
});
