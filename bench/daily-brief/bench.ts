import { randomUUID } from 'node:crypto';
import { GET } from '@/app/api/home/daily-brief/route';
import { signAccessToken } from '@/lib/auth';
import { resetConfigForTests } from '@/lib/config';
import { migrate, useDatabase as installDatabase, type Database, type Tx } from '@/lib/db';
import { DEMO_SEED, generateDemoData, insertPlanetData, PLANETS } from '@/lib/planets';
import { openBenchDatabase } from '../database';
import type { Bench } from '../run';
import { ms, percentile } from '../stats';

/**
 * GET /api/home/daily-brief on a workspace with 10k appointments, 5k customers and 1k insights (plus
 * a week of agent decisions and their messages), against the same SQL statements run directly on the
 * database: the difference is the API's own cost (JWT check, RLS transaction and role switch,
 * composition, camelCase serialization, JSON).
 */
const APPOINTMENTS = 10_000;
const CUSTOMERS = 5_000;
const INSIGHTS = 1_000;
const WARMUP = 20;
const RUNS = 200;
const STATEMENT_RUNS = 100;
const TODAY = '2026-11-30';

/** Records every statement a transaction runs, so the same ones can be replayed bare. */
function recording(db: Database, log: Array<{ text: string; params?: readonly unknown[] }>): Database {
  return {
    ...db,
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          ...tx,
          query: (text, params) => {
            log.push({ text, params });
            return tx.query(text, params);
          },
        } as Tx),
      ),
  };
}

async function seed(db: Database) {
  const [user] = await db.query<{ id: string; email: string }>(`insert into auth.users (email) values ('brief-bench@example.test') returning id, email`);
  const workspaceId = randomUUID();
  await db.query(
    `insert into public.workspaces (id, name, owner_id, time_zone, locale, sector) values ($1, 'Studio Bench', $2, 'Europe/Rome', 'it', 'hair_salon')`,
    [workspaceId, user!.id],
  );
  // 5k customers make ~20k appointments over the demo's 250 days (120 back, 130 booked ahead): every
  // other one gives 10k spread over the same span, about 40 a day.
  const data = generateDemoData(DEMO_SEED, TODAY, { customers: CUSTOMERS, staff: 20 });
  const step = data.appointments.length / APPOINTMENTS;
  data.appointments = Array.from({ length: APPOINTMENTS }, (_, i) => data.appointments[Math.floor(i * step)]!);
  await db.transaction((tx) => insertPlanetData(tx, { workspaceId, ownerId: user!.id, timeZone: 'Europe/Rome' }, data));

  // 1k insights: one per planet and day, back from today; a week of decisions (20 waiting, 200 done) with messages.
  await db.query(
    `insert into public.workspace_insights (workspace_id, planet, insight_date, kind, severity, params, source, status)
     select $1, ($2::text[])[1 + i % 6], $3::date - (i / 6), 'stale_deals', 'watch', '{"count": 2}', 'rules', case when i % 3 = 0 then 'seen' else 'new' end
       from generate_series(0, $4 - 1) as i`,
    [workspaceId, [...PLANETS], TODAY, INSIGHTS],
  );
  await db.query(
    `with d as (
       insert into public.agent_decisions (workspace_id, planet, action_type, args, args_hash, details, dedupe_key, tier, status, trigger,
                                           expires_at, executed_at, created_at)
       select $1, 'booking', 'booking_reminder',
              jsonb_build_object('channel', 'sms', 'to', '+39 333 000 ' || lpad(i::text, 4, '0'), 'message', 'Ciao, ti ricordiamo l''appuntamento di domani.'),
              repeat('a', 64), jsonb_build_object('customerName', 'Cliente ' || i, 'serviceName', 'Taglio', 'startsAt', now() + interval '1 day'),
              'bench:' || i, case when i < 20 then 'propose' else 'auto' end, case when i < 20 then 'proposed' else 'executed' end, 'bench',
              now() + interval '1 day', case when i < 20 then null else now() - (i || ' minutes')::interval end, now() - (i || ' minutes')::interval
         from generate_series(0, 219) as i
       returning id, status, executed_at)
     insert into public.outbox_messages (workspace_id, decision_id, channel, recipient, body, status, send_after, sent_at)
     select $1, d.id, 'sms', '+39 333 000 0000', 'Ciao!', 'sent', d.executed_at, d.executed_at from d where d.status = 'executed'`,
    [workspaceId],
  );
  const counts = await db.query<{ appointments: number; customers: number; insights: number }>(
    `select (select count(*)::int from public.appointments where workspace_id = $1) as appointments,
            (select count(*)::int from public.customers where workspace_id = $1) as customers,
            (select count(*)::int from public.workspace_insights where workspace_id = $1) as insights`,
    [workspaceId],
  );
  return { user: user!, workspaceId, counts: counts[0]! };
}

/** A statement's name in the breakdown: the first table it reads. */
const describe = (text: string) => /from\s+(?:public|private)\.(\w+)/.exec(text)?.[1] ?? text.replace(/\s+/g, ' ').slice(0, 30);

const bench: Bench = async () => {
  Object.assign(process.env, { LOG_LEVEL: 'warn' });
  resetConfigForTests();
  const { db, drop } = await openBenchDatabase();
  await migrate(db);
  const { user, workspaceId, counts } = await seed(db);

  const statements: Array<{ text: string; params?: readonly unknown[] }> = [];
  installDatabase(recording(db, statements));
  const token = await signAccessToken(user);
  const request = () =>
    GET(new Request(`http://bench.local/api/home/daily-brief?workspace_id=${workspaceId}`, { headers: { authorization: `Bearer ${token}` } }));

  const first = await request();
  if (first.status !== 200) throw new Error(`daily-brief answered ${first.status}: ${await first.text()}`);
  const body = (await first.json()) as { data: { proposals: unknown[]; done: unknown[] } };
  // The statements of one brief, replayed as they are: no transaction, no role, no RLS, no JSON.
  const brief = statements.splice(0).filter((s) => !/set_config|instance_settings/.test(s.text));
  const direct = async () => {
    for (const s of brief) await db.query(s.text, s.params);
  };

  const times = { api: [] as number[], direct: [] as number[] };
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const [name, fn] of i % 2 ? ([['direct', direct], ['api', request]] as const) : ([['api', request], ['direct', direct]] as const)) {
      const started = performance.now();
      const out = await fn();
      if (out instanceof Response) await out.arrayBuffer();
      if (i >= WARMUP) times[name].push(performance.now() - started);
    }
    statements.length = 0;
  }
  // Where the time goes: each statement alone, replayed bare, medians.
  const perStatement: Array<{ p50: number; label: string }> = [];
  for (const s of brief) {
    const xs: number[] = [];
    for (let i = 0; i < WARMUP + STATEMENT_RUNS; i++) {
      const started = performance.now();
      await db.query(s.text, s.params);
      if (i >= WARMUP) xs.push(performance.now() - started);
    }
    perStatement.push({ p50: percentile(xs, 50), label: `#${perStatement.length + 1} ${describe(s.text)}` });
  }
  installDatabase(undefined);
  await db.close();
  await drop();

  const row = (label: string, xs: number[]) => ({ measured: label, p50: ms(percentile(xs, 50)), p95: ms(percentile(xs, 95)), max: ms(Math.max(...xs)) });
  return {
    title: `daily-brief on ${db.kind}: ${counts.appointments} appointments, ${counts.customers} customers, ${counts.insights} insights; ${RUNS} requests each after ${WARMUP} warm-up (ms)`,
    rows: [row('GET /api/home/daily-brief', times.api), row(`the same ${brief.length} statements, directly`, times.direct)],
    notes: [
      `target: p95 < 50 ms for the API; the brief carried ${body.data.proposals.length} proposals and ${body.data.done.length} done groups`,
      `API overhead at the median: ${ms(percentile(times.api, 50) - percentile(times.direct, 50))} ms (JWT, transaction + RLS role, composition, serialization)`,
      `per statement, bare, p50 of ${STATEMENT_RUNS}: ${perStatement.map((x) => `${x.label} ${ms(x.p50)}`).join(' · ')}`,
    ],
  };
};

export default bench;
