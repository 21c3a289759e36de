import { describe, expect, it } from 'vitest';
import { executorRuns } from '@/inngest/executor';
import { openPostgres, type Database } from '@/lib/db';
import { routineRuns } from '@/lib/schedule';
import { topicRequests } from '@/lib/topics';
import { setupTestDatabase, testDbKind } from '@/test/db';
import { withDatabase } from '@/test/global-setup';
import { claim, finish, held, release, renew, startWorker, type Queue } from '.';

const getDb = setupTestDatabase();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A plain queue on a table of this test's own: FIFO, attempts counted, no groups. */
const jobs: Queue = {
  table: 'public.test_jobs',
  idType: 'bigint',
  ready: (t) => `${t}.status = 'pending'`,
  leased: (t) => `${t}.status = 'running'`,
  order: (t) => `${t}.id`,
  attempts: {},
  onClaim: () => `status = 'running'`,
  returning: 'r.id, r.attempts',
};

async function freshJobs(n: number) {
  await getDb().exec(`
    drop table if exists public.test_jobs;
    create table public.test_jobs (
      id bigint generated always as identity primary key,
      status text not null default 'pending',
      attempts integer not null default 0,
      lease_owner text, lease_worker uuid, lease_expires_at timestamptz);`);
  await getDb().query(`insert into public.test_jobs (status) select 'pending' from generate_series(1, $1::int)`, [n]);
}

const take = (owner: string, options: { worker?: string | null; limit?: number; leaseSeconds?: number } = {}) =>
  claim<{ id: number; attempts: number }>(getDb(), jobs, { owner, worker: options.worker ?? null, leaseSeconds: options.leaseSeconds ?? 60, limit: options.limit ?? 1 });

const done = (owner: string, ids: number[]) =>
  finish(getDb(), jobs, { owner, rows: ids.map((id) => ({ id })), types: {}, set: () => `status = 'done'` });

describe('claim, renew, finish', () => {
  it('claims a batch in one statement and finishes it in one; a row whose lease was lost is not finished', async () => {
    await freshJobs(25);
    const batch = await take('a', { limit: 10, leaseSeconds: 0.2 });
    expect(batch.map((j) => j.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(batch.every((j) => j.attempts === 1 && !j.exhausted)).toBe(true);
    await sleep(300);
    // Job 1 ran out and was claimed by b; a still finishes the nine nobody took.
    const [again] = await take('b');
    expect(again!.id).toBe(1);
    expect((await done('a', batch.map((j) => j.id))).map((r) => Number(r.id)).sort((x, y) => x - y)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await done('a', [1])).toEqual([]);
    expect(await done('b', [1])).toHaveLength(1);
    expect((await take('c', { limit: 100 })).map((j) => j.id)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
  });

  it('finishes a batch and claims the next in one statement, leaving alone what is no longer its own', async () => {
    await freshJobs(7);
    const first = await take('a', { limit: 3, leaseSeconds: 0.2 });
    await sleep(300);
    // Job 1's lease ran out and b took it; jobs 2 and 3 ran out too but nobody took them.
    expect((await take('b')).map((j) => j.id)).toEqual([1]);
    const next = await claim<{ id: number }>(getDb(), jobs, {
      owner: 'a',
      worker: null,
      leaseSeconds: 60,
      limit: 3,
      finishing: { rows: first.map((j) => ({ id: j.id })), types: {}, set: () => `status = 'done'` },
    });
    expect(next.map((j) => j.id)).toEqual([4, 5, 6]);
    expect(await getDb().query(`select id, status, lease_owner from public.test_jobs where id <= 3 order by id`)).toEqual([
      { id: 1, status: 'running', lease_owner: 'b' },
      { id: 2, status: 'done', lease_owner: null },
      { id: 3, status: 'done', lease_owner: null },
    ]);
  });

  it('renews only the holder’s leases, and hands them back on release', async () => {
    await freshJobs(3);
    const mine = await take('a', { limit: 2, leaseSeconds: 0.3 });
    expect(await renew(getDb(), jobs, { owner: 'b', ids: mine.map((j) => j.id), leaseSeconds: 30 })).toEqual([]);
    expect(await renew(getDb(), jobs, { owner: 'a', ids: mine.map((j) => j.id), leaseSeconds: 30 })).toHaveLength(2);
    await sleep(400);
    // Past the first lease, still held: the next claim gets the third job only.
    expect((await take('b', { limit: 10 })).map((j) => j.id)).toEqual([3]);
    await release(getDb(), jobs, { owner: 'a', ids: [mine[0]!.id] });
    expect((await take('c', { limit: 10 })).map((j) => j.id)).toEqual([mine[0]!.id]);
  });

  it('gives a row up once its attempts ran out, in the claim, and goes on to the next', async () => {
    await freshJobs(3);
    const capped: Queue = { ...jobs, attempts: { max: 2, giveUp: () => `status = 'gave up'` } };
    const claimCapped = (owner: string) => claim<{ id: number }>(getDb(), capped, { owner, worker: null, leaseSeconds: 0.1, limit: 1 });
    expect((await claimCapped('a')).map((j) => j.id)).toEqual([1]);
    await sleep(150);
    expect((await claimCapped('b')).map((j) => j.id)).toEqual([1]);
    await sleep(150);
    // Job 1 has had its two claims: this claim gives it up and still hands out one job.
    expect((await claimCapped('c')).map((j) => [j.id, j.exhausted])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(await getDb().query(`select id, status, lease_owner from public.test_jobs order by id`)).toEqual([
      { id: 1, status: 'gave up', lease_owner: null },
      { id: 2, status: 'running', lease_owner: 'c' },
      { id: 3, status: 'pending', lease_owner: null },
    ]);
  });
});

describe('workers', () => {
  it('a lease held by a worker is free once the worker stopped beating for `aliveMs`, not before', async () => {
    await freshJobs(1);
    const silent = await startWorker(getDb(), { install: 'silent', heartbeatMs: 60_000, aliveMs: 1_000 });
    expect(await take('silent', { worker: silent.id, leaseSeconds: 600 })).toHaveLength(1);
    expect(await take('other')).toEqual([]);
    await sleep(1_200);
    expect((await take('other')).map((j) => j.attempts)).toEqual([2]);
    await silent.stop();
  });

  it('a live worker’s heartbeat keeps its leases past `aliveMs`', async () => {
    await freshJobs(1);
    const beating = await startWorker(getDb(), { install: 'beating', heartbeatMs: 100, aliveMs: 500 });
    expect(await take('beating', { worker: beating.id, leaseSeconds: 600 })).toHaveLength(1);
    await sleep(1_200);
    expect(await take('other')).toEqual([]);
    await beating.stop();
  });

  it('the next worker of the same install frees its predecessor’s leases at once; another install’s does not', async () => {
    await freshJobs(2);
    const killed = await startWorker(getDb(), { install: 'app-1', heartbeatMs: 60_000, aliveMs: 60_000 });
    expect(await take('killed', { worker: killed.id, limit: 2, leaseSeconds: 600 })).toHaveLength(2);
    const elsewhere = await startWorker(getDb(), { install: 'app-2', heartbeatMs: 60_000, aliveMs: 60_000 });
    expect(await take('elsewhere', { worker: elsewhere.id })).toEqual([]);
    const restarted = await startWorker(getDb(), { install: 'app-1', heartbeatMs: 60_000, aliveMs: 60_000 });
    expect((await take('restarted', { worker: restarted.id, limit: 2 })).map((j) => j.id)).toEqual([1, 2]);
    await Promise.all([elsewhere.stop(), restarted.stop()]);
  });

  it('a worker that stops hands back what it holds', async () => {
    await freshJobs(1);
    const leaving = await startWorker(getDb(), { install: 'leaving' });
    expect(await take('leaving', { worker: leaving.id, leaseSeconds: 600 })).toHaveLength(1);
    await leaving.stop();
    expect(await take('next')).toHaveLength(1);
  });
});

/**
 * The kill test of lib/chat/claims.test.ts for the other queues: connections claim batches, finish them
 * in one statement, and claim again until nothing is left; two die holding their batch. Every row is
 * finished exactly once, by one connection, and the dead connections' rows were claimed again.
 * On Postgres each connection is its own session; PGlite has one connection, so there the doomed
 * connection dies first and two others then share the rest on it.
 */
async function killTest(options: {
  queue: Queue;
  scopes: unknown[];
  finished: string;
  total: number;
  /** Checked after every claim (a group limit, say): returns what broke it, or nothing. */
  invariant?: (db: Pick<Database, 'query'>) => Promise<unknown>;
}) {
  const { queue, scopes, total } = options;
  const handled = new Map<string, string[]>();
  const order: string[] = [];
  const violations: unknown[] = [];
  const connection = async (db: Pick<Database, 'query' | 'transaction'>, owner: string, dieAfterClaims?: number) => {
    let claims = 0;
    for (let idle = 0; ; ) {
      let got = 0;
      for (const scope of scopes) {
        const batch = (await claim<{ id: string }>(db, queue, { owner, worker: null, leaseSeconds: 2, limit: 10, scope })).filter((r) => !r.exhausted);
        if (batch.length === 0) continue;
        got += batch.length;
        if (options.invariant) {
          const broken = await options.invariant(db);
          if (broken) violations.push(broken);
        }
        if (++claims === dieAfterClaims) return;
        const finishedRows = await finish(db, queue, { owner, rows: batch.map((r) => ({ id: r.id })), types: {}, set: () => options.finished });
        for (const { id } of finishedRows) {
          handled.set(id, [...(handled.get(id) ?? []), owner]);
          order.push(id);
        }
      }
      if (got > 0) {
        idle = 0;
        continue;
      }
      const [left] = await db.query<{ n: number }>(`select count(*)::int as n from ${queue.table} t where (${queue.ready('t', { now: 'now()', scope: 'null' })}) or (${queue.leased('t', { now: 'now()', scope: 'null' })})`);
      if (left!.n === 0) return;
      if (++idle > 2_000) throw new Error('the queue stopped moving');
      await sleep(50);
    }
  };

  if (testDbKind === 'postgres') {
    const [{ name }] = (await getDb().query<{ name: string }>('select current_database() as name')) as [{ name: string }];
    const pools = await Promise.all(Array.from({ length: 8 }, () => openPostgres(withDatabase(process.env.TEST_DATABASE_URL!, name), { max: 1 })));
    try {
      await Promise.all(pools.map((pool, i) => connection(pool, `conn-${i}`, i < 2 ? 3 : undefined)));
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
    }
  } else {
    await connection(getDb(), 'doomed', 1);
    await Promise.all(['a', 'b'].map((owner) => connection(getDb(), owner)));
  }
  expect(violations).toEqual([]);
  expect(handled.size).toBe(total);
  expect([...handled.values()].filter((by) => by.length !== 1)).toEqual([]);
  return { order };
}

const nowAt = { now: 'now()', scope: 'null' };

describe.each([testDbKind])('every queue, connections killed mid-lease (%s)', () => {
  it('executor runs: each finished once, never more than a key’s limit running at once', { timeout: 300_000 }, async () => {
    const total = testDbKind === 'postgres' ? 2_000 : 300;
    await getDb().query(
      `insert into private.executor_runs (function_id, event, concurrency_key, run_at)
       select 'kill-fn-' || (g % 3), '{}'::jsonb, case when g % 3 = 0 then null else 'k' || (g % 10) end, now() - interval '1 minute'
         from generate_series(1, $1::int) g`,
      [total],
    );
    const functions = JSON.stringify([0, 1, 2].map((n) => ({ function_id: `kill-fn-${n}`, concurrency_limit: n === 0 ? null : 2 })));
    await killTest({
      queue: executorRuns,
      scopes: [functions],
      finished: `status = 'completed', finished_at = now()`,
      total,
      invariant: async (db) =>
        (
          await db.query(
            `select function_id, concurrency_key, count(*)::int as n from private.executor_runs r
              where r.function_id like 'kill-fn-%' and r.concurrency_key is not null and ${held(executorRuns, 'r', nowAt)}
              group by 1, 2 having count(*) > 2`,
          )
        )[0],
    });
    expect(await getDb().query(`select status, count(*)::int as n from private.executor_runs where function_id like 'kill-fn-%' group by status`)).toEqual([
      { status: 'completed', n: total },
    ]);
  });

  it('topic requests: each finished once, one at a time per workspace, in the order submitted', { timeout: 300_000 }, async () => {
    const perWorkspace = testDbKind === 'postgres' ? 120 : 36;
    // The sign-up trigger makes each user's workspace; a statement after the insert sees them.
    const users = await getDb().query<{ id: string }>(
      `insert into auth.users (email) select 'kill-' || g || '-' || gen_random_uuid() || '@example.test' from generate_series(1, 4) g returning id`,
    );
    const workspaces = await getDb().query<{ id: string }>(`select id from public.workspaces where owner_id = any($1::uuid[])`, [users.map((u) => u.id)]);
    expect(workspaces).toHaveLength(4);
    for (const { id } of workspaces) {
      await getDb().query(
        `with t as (insert into public.topics (workspace_id, name, system_prompt) values ($1, 'kill', '') returning id),
              s as (insert into public.topic_sessions (workspace_id, topic_id) select $1, t.id from t, generate_series(1, 6) returning id, topic_id)
         insert into public.topic_requests (workspace_id, topic_id, session_id, prompt)
         select $1, s.topic_id, s.id, 'request ' || g from s, generate_series(1, $2::int / 6) g order by g, s.id`,
        [id, perWorkspace],
      );
    }
    const [{ total }] = (await getDb().query<{ total: number }>(`select count(*)::int as total from public.topic_requests`)) as [{ total: number }];
    expect(total).toBe(4 * perWorkspace);
    const queue = topicRequests(1);
    const { order } = await killTest({
      queue,
      scopes: workspaces.map((w) => w.id),
      finished: `status = 'completed', completed_at = now()`,
      total,
      invariant: async (db) =>
        (await db.query(`select workspace_id, count(*)::int as n from public.topic_requests r where ${held(queue, 'r', nowAt)} group by 1 having count(*) > 1`))[0],
    });
    // One at a time per workspace: each workspace's requests finished in the order they were submitted
    // (a dead connection's request blocks its workspace until its lease runs out, then goes first).
    const rows = await getDb().query<{ id: string; workspace_id: string; seq: number }>(`select id, workspace_id, seq from public.topic_requests`);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const last = new Map<string, number>();
    const outOfOrder: unknown[] = [];
    for (const id of order) {
      const { workspace_id, seq } = byId.get(id)!;
      if (seq < (last.get(workspace_id) ?? 0)) outOfOrder.push({ seq, after: last.get(workspace_id) });
      last.set(workspace_id, seq);
    }
    expect(outOfOrder).toEqual([]);
  });

  it('routine runs: each sent once', { timeout: 300_000 }, async () => {
    const total = testDbKind === 'postgres' ? 1_000 : 200;
    const [user] = await getDb().query<{ id: string }>(`insert into auth.users (email) values ('kill-routines-' || gen_random_uuid() || '@example.test') returning id`);
    const inserted = await getDb().query(
      `with w as (select id, owner_id from public.workspaces where owner_id = $2),
            a as (insert into private.agents (owner_user_id, name) select owner_id, 'Routine' from w returning id),
            wa as (insert into public.workspace_agents (workspace_id, agent_id) select w.id, a.id from w, a returning workspace_id, agent_id),
            r as (insert into public.routines (workspace_id, agent_id, name, instruction, interval_minutes, next_run_at)
                  select workspace_id, agent_id, 'Kill', 'Do it', 60, now() + interval '1 hour' from wa returning id, workspace_id)
       insert into public.routine_runs (workspace_id, routine_id, due_at)
       select r.workspace_id, r.id, now() - make_interval(mins => g) from r, generate_series(1, $1::int) g returning id`,
      [total, user!.id],
    );
    expect(inserted).toHaveLength(total);
    await killTest({ queue: routineRuns, scopes: [null], finished: `status = 'sent', sent_at = now()`, total });
  });
});
