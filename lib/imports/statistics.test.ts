import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { asService, withUser, type SessionUser, type Tx } from '@/lib/db';
import { createWorkspace, type Workspace } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser, joinWorkspace } from '@/test/fixtures';
import { runImport, type ImportTable } from './index';

/**
 * What the appointments' triggers keep — each customer's visit statistics and each appointment's
 * `rebooked` — after imports, which have them computed once at commit instead of per batch
 * (migration 20261203090000_appointment_stats_at_commit.sql).
 */

setupTestDatabase();

const FIXTURES = path.join(import.meta.dirname, '../../test/fixtures/csv');
async function* bytesOf(data: Uint8Array): AsyncIterable<Uint8Array> {
  yield data;
}
const importFile = async (user: SessionUser, workspaceId: string, table: ImportTable, file: string) =>
  runImport(user, workspaceId, { table, bytes: bytesOf(file.endsWith('.csv') ? await readFile(path.join(FIXTURES, file)) : new TextEncoder().encode(file)) }, 'en');
const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => asService((tx) => tx.query<T>(sql, params));

/** Customers and appointments whose stored statistics differ from their definitions (planets migrations). */
const mismatched = (workspaceId: string) =>
  q<{ visits: number; rebooked: number; rebookedTrue: number; visited: number }>(
    `select (select count(*)::int from public.customers c
               cross join lateral (select count(*)::int as n, min(a.starts_at) as first_at, max(a.starts_at) as last_at
                                     from public.appointments a where a.customer_id = c.id and a.status = 'completed') s
              where c.workspace_id = $1 and (c.visit_count, c.first_visit_at, c.last_visit_at) is distinct from (s.n, s.first_at, s.last_at)) as visits,
            (select count(*)::int from public.appointments x
              where x.workspace_id = $1 and x.rebooked is distinct from exists (
                      select 1 from public.appointments n
                       where n.workspace_id = x.workspace_id and n.customer_id = x.customer_id
                         and n.starts_at > x.starts_at and n.created_at <= x.ends_at + interval '24 hours')) as rebooked,
            (select count(*)::int from public.appointments where workspace_id = $1 and rebooked) as "rebookedTrue",
            (select count(*)::int from public.customers where workspace_id = $1 and visit_count > 0) as visited`,
    [workspaceId],
  ).then((rows) => rows[0]!);

/** Day-first dates, as the fixtures write them, `days` from today (the import's rows are created now). */
const day = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
};

let owner: SessionUser;
let member: SessionUser;
let salon: Workspace;

beforeAll(async () => {
  [owner, member] = (await Promise.all(['owner', 'member'].map((n) => createUser(n)))) as [SessionUser, SessionUser];
  salon = await createWorkspace(owner, { name: 'Salone Statistiche', timeZone: 'Europe/Rome', locale: 'it', sector: 'hair_salon' });
  await joinWorkspace(owner, salon.id, member);
  for (const [table, file] of [['services', 'services.csv'], ['staff', 'staff.csv'], ['customers', 'customers.csv']] as const) {
    await importFile(owner, salon.id, table, file);
  }
});

describe('visit statistics and rebooking after an import', () => {
  it('are what the appointments say once the import has answered, also when a re-import moves and changes them', async () => {
    // Past visits and bookings ahead for six customers, all created now: a booking made while the
    // next one was already booked is rebooked, a past visit (ended more than a day ago) is not.
    const header = 'Appointment ID,Date,Time,Customer ID,Service,Staff,Status';
    const rows = [header];
    let n = 0;
    for (const customer of ['C001', 'C002', 'C003', 'C004', 'C005', 'C006']) {
      for (const [days, status] of [[-40, 'Completed'], [-20, 'No-show'], [-10, 'Completed'], [7, 'Booked'], [21, 'Booked'], [35, 'Booked']] as const) {
        rows.push(`B${++n},${day(days)},10:00,${customer},Piega,Marco Rossi,${status}`);
      }
    }
    expect(await importFile(owner, salon.id, 'appointments', `${rows.join('\n')}\n`)).toMatchObject({ inserted: 36, errorCount: 0 });
    expect(await mismatched(salon.id)).toEqual({ visits: 0, rebooked: 0, rebookedTrue: 12, visited: 6 });

    // Again, with C006's appointments moved to C001, C002's visits cancelled and C003's bookings
    // moved two months back, before the visits they followed.
    let moved = 0;
    const changed = rows.map((row) =>
      row
        .replace(',C006,', ',C001,')
        .replace(/^(.*,C002,.*),Completed$/, '$1,Cancelled')
        .replace(/^(B\d+),[^,]+,(10:00,C003,.*,Booked)$/, (_, id: string, rest: string) => `${id},${day(-60 + ++moved)},${rest}`),
    );
    expect(changed.filter((row, i) => row !== rows[i])).toHaveLength(6 + 2 + 3);
    expect(await importFile(owner, salon.id, 'appointments', `${changed.join('\n')}\n`)).toMatchObject({ inserted: 0, updated: 11, unchanged: 25, errorCount: 0 });
    const again = await mismatched(salon.id);
    expect(again).toMatchObject({ visits: 0, rebooked: 0 });
    // C006 has no visits left, C002 none completed: four customers have some.
    expect(again.visited).toBe(4);
    const [c001] = await q<{ visit_count: number }>(`select visit_count from public.customers where workspace_id = $1 and external_id = 'C001'`, [salon.id]);
    expect(c001!.visit_count).toBe(4);
  });

  it('postpones them to the commit only: someone who sets the setting themselves still gets them right', async () => {
    const [ids] = await q<{ customer: string; service: string; staff: string; visits: number }>(
      `select c.id as customer, c.visit_count as visits,
              (select id from public.services where workspace_id = $1 limit 1) as service,
              (select id from public.staff where workspace_id = $1 limit 1) as staff
         from public.customers c where c.workspace_id = $1 and c.external_id = 'C007'`,
      [salon.id],
    );
    const book = (tx: Tx, daysAgo: number) =>
      tx.query(
        `insert into public.appointments (workspace_id, customer_id, service_id, staff_id, starts_at, ends_at, status, price_cents)
         values ($1, $2, $3, $4, now() - make_interval(days => $5), now() - make_interval(days => $5) + interval '30 minutes', 'completed', 2000)`,
        [salon.id, ids!.customer, ids!.service, ids!.staff, daysAgo],
      );
    const visitsOf = async (tx: Tx) =>
      (await tx.query<{ visit_count: number }>(`select visit_count from public.customers where id = $1`, [ids!.customer]))[0]!.visit_count;

    const seen = await withUser(member, async (tx) => {
      await tx.query(`select set_config('multiverbe.appointment_stats', 'at_commit', true)`);
      await book(tx, 30);
      const postponed = await visitsOf(tx);
      // SET CONSTRAINTS … IMMEDIATE brings the work forward; the next statement postpones again.
      await tx.query(`set constraints all immediate`);
      const brought = await visitsOf(tx);
      await tx.query(`set constraints all deferred`);
      await book(tx, 10);
      return { postponed, brought, beforeCommit: await visitsOf(tx) };
    });
    expect(seen).toEqual({ postponed: ids!.visits, brought: ids!.visits + 1, beforeCommit: ids!.visits + 1 });
    const [after] = await q<{ visit_count: number }>(`select visit_count from public.customers where id = $1`, [ids!.customer]);
    expect(after!.visit_count).toBe(ids!.visits + 2);
    expect(await mismatched(salon.id)).toMatchObject({ visits: 0, rebooked: 0 });
    // Nothing is left noted for a later transaction.
    expect(await q(`select * from private.appointment_stats_pending union all select txid, null from private.appointment_stats_at_commit`)).toEqual([]);
  });
});
