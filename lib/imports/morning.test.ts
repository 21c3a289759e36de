import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { analyzePlanetData, analyzePlanetDataSchedule } from '@/inngest/functions/analyze-planet-data';
import { startRuntime, type TestRuntime } from '@/inngest/testing';
import { asService, type SessionUser } from '@/lib/db';
import { composeDailyBrief } from '@/lib/home';
import { createWorkspace, type Workspace } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { runImport, type ImportTable } from './index';

setupTestDatabase();

/**
 * A business that is not the demo: a new account makes a team workspace (Rome), imports its own CSV
 * files (test/fixtures/csv) on Sunday evening, and at 06:00 on Monday 7 December 2026 the hourly cron
 * runs the daily analysis on that data alone. The owner's Home then has insights and proposals drawn
 * from the imported customers and bookings.
 *
 * One clock: the faked JS one, as each step's `now` (the import, the cron's scheduled instant, the
 * analysis, the Home), never the database's now(), which on Postgres is the real date. The database's
 * clock only stamps rows' `created_at` (the imported customers, the fan-out's events), which nothing
 * asserted here reads, so the test passes on Postgres before and after 7 December 2026 alike.
 */
let owner: SessionUser;
let salon: Workspace;
let runtime: TestRuntime;
const at = (iso: string) => vi.setSystemTime(new Date(iso));
const q = <T = Record<string, any>>(sql: string, params: unknown[] = []) => asService((tx) => tx.query<T>(sql, params));

async function importFixture(table: ImportTable, file: string, now: Date) {
  const bytes = await readFile(path.join(import.meta.dirname, '../../test/fixtures/csv', file));
  return runImport(owner, salon.id, { table, bytes: (async function* () { yield new Uint8Array(bytes); })() }, 'it', now);
}

describe('the morning after an import', () => {
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at('2026-12-06T19:00:00Z'); // Sunday, 20:00 in Rome
    owner = await createUser('owner');
    salon = await createWorkspace(owner, { name: 'Salone Nuovo', timeZone: 'Europe/Rome', locale: 'it', sector: 'hair_salon' });
    for (const [table, file] of [['services', 'services.csv'], ['staff', 'staff.csv'], ['customers', 'customers.csv'], ['appointments', 'appointments.csv']] as const) {
      expect(await importFixture(table, file, new Date())).toMatchObject({ errorCount: 0 });
    }
    at('2026-12-07T04:59:00Z'); // 05:59 in Rome
    runtime = await startRuntime('local executor', { functions: [analyzePlanetDataSchedule, analyzePlanetData] });
  });

  afterAll(async () => {
    await runtime.stop();
    vi.useRealTimers();
  });

  it('06:00: the analysis of the imported data produces insights and proposals on the owner’s Home', async () => {
    const before = await composeDailyBrief(owner, salon.id, { now: new Date() });
    expect(before.proposals).toEqual([]);

    at('2026-12-07T05:00:00Z');
    await runtime.runUntilIdle();

    const insights = await q<{ planet: string; kind: string }>(
      `select planet, kind from public.workspace_insights where workspace_id = $1 and insight_date = '2026-12-07' order by planet, kind`,
      [salon.id],
    );
    // Tomorrow's imported bookings want reminders; customers who stopped coming in September are lapsed.
    expect(insights.map((i) => `${i.planet}:${i.kind}`)).toEqual(expect.arrayContaining(['booking:reminders_due', 'crm:lapsed_customers']));

    const home = await composeDailyBrief(owner, salon.id, { now: new Date() });
    expect(home.canDecide).toBe(true);
    const proposed = home.proposals.map((p) => p.action_type);
    expect(proposed).toEqual(expect.arrayContaining(['booking_reminder', 'win_back']));
    expect(home.proposals.every((p) => p.status === 'proposed')).toBe(true);
    // Each reminder is for one of the imported bookings in the next 30 hours.
    const reminders = await q<{ external_id: string }>(
      `select a.external_id from public.agent_decisions d join public.appointments a on a.id = (d.args ->> 'appointmentId')::uuid
        where d.workspace_id = $1 and d.action_type = 'booking_reminder' order by a.starts_at`,
      [salon.id],
    );
    expect(reminders.length).toBeGreaterThan(0);
    expect(reminders.every((r) => /^A\d{4}$/.test(r.external_id))).toBe(true);
    expect(home.planets.find((p) => p.planet === 'booking')).toMatchObject({ hasData: true });
    expect(home.planets.find((p) => p.planet === 'booking')!.newInsights).toBeGreaterThan(0);
  });
});
