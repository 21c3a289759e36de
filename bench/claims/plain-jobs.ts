import { Logger, run, runMigrations, type Runner } from 'graphile-worker';
import { openPostgres, type Database } from '@/lib/db';
import { claim, startWorker, type Queue } from '@/lib/queue';
import { median, ms, percentile } from '../stats';

/**
 * Plain jobs (no ordering rule), side by side with graphile-worker on the same Postgres database, same
 * batch sizes and worker counts, alternating which goes first each round.
 *
 * - lib/queue: each worker is a loop with a connection of its own that claims a batch in one statement,
 *   runs its jobs, and finishes the batch in the statement that claims the next (`claim`'s `finishing`).
 *   One LISTEN per process (a trigger NOTIFYs on insert) wakes idle workers; they poll every second
 *   otherwise, as graphile-worker does.
 * - graphile-worker: each worker is a runner (`run()`, concurrency 1, a pool of two connections: one for
 *   its queries, one for its LISTEN). Batch b > 1 is its local queue of size b (one `get_jobs` fetches and
 *   locks b jobs) with completions batched (`completeJobBatchDelay: 0`); batch 1 is its default, one
 *   `get_job` per job, its completion not awaited before the next fetch.
 *
 * Throughput: JOBS jobs queued before the workers start; jobs per second between the first job starting
 * and the last finishing (the handlers note the times, so start-up and the insert are not counted).
 * Latency: with the workers idle, LATENCY_JOBS jobs queued one at a time; from just before the enqueue
 * statement to the handler starting.
 */
export const JOBS = 2_000;
export const LATENCY_JOBS = 100;
export const BATCHES = [1, 10, 50];
export const WORKERS = [1, 4, 8];
export const ROUNDS = 3;

const benchJobs: Queue = {
  table: 'public.bench_jobs',
  idType: 'bigint',
  ready: (t) => `${t}.status = 'pending'`,
  leased: (t) => `${t}.status = 'running'`,
  order: (t) => `${t}.id`,
  attempts: { max: 25, giveUp: () => `status = 'failed'` },
  onClaim: () => `status = 'running'`,
  returning: 'r.id, r.payload',
};

const SETUP = `
  create table if not exists public.bench_jobs (
    id bigint generated always as identity primary key,
    payload jsonb not null,
    status text not null default 'pending',
    attempts integer not null default 0,
    lease_owner text, lease_worker uuid, lease_expires_at timestamptz,
    created_at timestamptz not null default now());
  create index if not exists bench_jobs_open_idx on public.bench_jobs (id) where status in ('pending', 'running');
  create or replace function public.bench_jobs_notify() returns trigger language plpgsql as $$
  begin perform pg_notify('bench_jobs', ''); return null; end $$;
  drop trigger if exists bench_jobs_notify on public.bench_jobs;
  create trigger bench_jobs_notify after insert on public.bench_jobs for each statement execute function public.bench_jobs_notify();`;

interface Handled {
  /** performance.now() when each job's handler started and ended. */
  started: number[];
  ended: number[];
  /** Per job (by its payload's n), when its handler started. */
  startedByN: Map<number, number>;
}

const handler = (handled: Handled, n: number) => {
  const at = performance.now();
  handled.started.push(at);
  handled.startedByN.set(n, at);
  handled.ended.push(performance.now());
};

interface System {
  name: string;
  /** Starts `workers` workers taking batches of `batch`; resolves once they are running. */
  start(workers: number, batch: number, handled: Handled): Promise<{ stop(): Promise<void> }>;
  /** Queues `count` jobs numbered from `from`, in one statement. */
  enqueue(from: number, count: number): Promise<void>;
  /** Empties the queue between runs. */
  reset(): Promise<void>;
}

function ourSystem(url: string, admin: Database, workerId: string): System {
  return {
    name: 'lib/queue',
    async start(workers, batch, handled) {
      let stopped = false;
      // One LISTEN for the process, as the app has, waking every worker.
      const waiting = new Set<() => void>();
      // Counts notifications, so a worker whose claim came back empty does not wait for one that
      // arrived while it was claiming.
      let notified = 0;
      const wakeAll = () => {
        notified += 1;
        for (const wake of waiting) wake();
      };
      const unlisten = await admin.listen('bench_jobs', wakeAll);
      const idle = () =>
        new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            waiting.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, 1_000);
          waiting.add(wake);
        });
      const loops = await Promise.all(
        Array.from({ length: workers }, async (_, i) => {
          const db = await openPostgres(url, { max: 1 });
          const owner = `bench-${i}`;
          type Job = { id: number; payload: { n: number } };
          // A batch's finish goes in the statement that claims the next batch: one round trip and one
          // commit per batch.
          const take = (done: Job[] = []) =>
            claim<Job>(db, benchJobs, {
              owner,
              worker: workerId,
              leaseSeconds: 60,
              limit: batch,
              finishing: { rows: done.map((j) => ({ id: j.id })), types: {}, set: () => `status = 'done'` },
            });
          const loop = (async () => {
            let seen = notified;
            let jobs = await take();
            while (!stopped) {
              if (jobs.length === 0) {
                if (notified === seen) await idle();
                seen = notified;
                jobs = stopped ? [] : await take();
                continue;
              }
              for (const job of jobs) handler(handled, job.payload.n);
              seen = notified;
              jobs = await take(jobs);
            }
          })();
          return { db, loop };
        }),
      );
      return {
        async stop() {
          stopped = true;
          wakeAll();
          await Promise.all(loops.map((l) => l.loop));
          await Promise.all(loops.map((l) => l.db.close()));
          await unlisten();
        },
      };
    },
    async enqueue(from, count) {
      await admin.query(`insert into public.bench_jobs (payload) select jsonb_build_object('n', g) from generate_series($1::int, $2::int) g`, [from, from + count - 1]);
    },
    async reset() {
      await admin.query('truncate public.bench_jobs');
    },
  };
}

function graphileSystem(url: string, admin: Database): System {
  const logger = new Logger(() => () => {});
  return {
    name: 'graphile-worker',
    async start(workers, batch, handled) {
      const runners: Runner[] = await Promise.all(
        Array.from({ length: workers }, () =>
          run({
            connectionString: url,
            concurrency: 1,
            maxPoolSize: 2,
            noHandleSignals: true,
            pollInterval: 1_000,
            logger,
            taskList: { bench: async (payload) => handler(handled, (payload as { n: number }).n) },
            preset: { worker: batch > 1 ? { localQueue: { size: batch }, completeJobBatchDelay: 0 } : {} },
          }),
        ),
      );
      return { stop: async () => void (await Promise.all(runners.map((r) => r.stop()))) };
    },
    async enqueue(from, count) {
      await admin.query(
        `select graphile_worker.add_jobs(array(
           select row('bench', json_build_object('n', g), null, null, null, null, null, null)::graphile_worker.job_spec
             from generate_series($1::int, $2::int) g))`,
        [from, from + count - 1],
      );
    },
    async reset() {
      await admin.query('truncate graphile_worker._private_jobs cascade');
    },
  };
}

const freshHandled = (): Handled => ({ started: [], ended: [], startedByN: new Map() });

async function until(check: () => boolean, what: string, timeoutMs = 120_000) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Jobs per second with a full queue. */
async function throughput(system: System, workers: number, batch: number): Promise<number> {
  await system.reset();
  await system.enqueue(1, JOBS);
  const handled = freshHandled();
  const running = await system.start(workers, batch, handled);
  try {
    await until(() => handled.ended.length >= JOBS, `${system.name} to run ${JOBS} jobs`);
  } finally {
    await running.stop();
  }
  if (handled.startedByN.size !== JOBS) throw new Error(`${system.name} ran ${handled.startedByN.size} distinct jobs of ${JOBS}`);
  return JOBS / ((Math.max(...handled.ended) - Math.min(...handled.started)) / 1000);
}

/** Queue-to-start times with idle workers, one job at a time. */
async function latency(system: System, workers: number, batch: number): Promise<number[]> {
  await system.reset();
  const handled = freshHandled();
  const running = await system.start(workers, batch, handled);
  const times: number[] = [];
  try {
    // Let every worker reach its idle wait first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (let n = 1; n <= LATENCY_JOBS; n++) {
      const queuedAt = performance.now();
      await system.enqueue(n, 1);
      await until(() => handled.startedByN.has(n), `${system.name} to start job ${n}`, 30_000);
      times.push(handled.startedByN.get(n)! - queuedAt);
    }
  } finally {
    await running.stop();
  }
  return times;
}

interface PlainJobsRow {
  batch: number;
  workers: number;
  ours: number[];
  theirs: number[];
  oursLatency: number[];
  theirsLatency: number[];
}

/** Every configuration, ROUNDS times, the two systems alternating which goes first. */
export async function plainJobs(url: string, admin: Database): Promise<Array<Record<string, string | number>>> {
  await admin.exec(SETUP);
  await runMigrations({ connectionString: url, logger: new Logger(() => () => {}) });
  const worker = await startWorker(admin, { install: 'bench' });
  const ours = ourSystem(url, admin, worker.id);
  const theirs = graphileSystem(url, admin);
  const results: PlainJobsRow[] = [];
  try {
    for (const batch of BATCHES) {
      for (const workers of WORKERS) {
        const row: PlainJobsRow = { batch, workers, ours: [], theirs: [], oursLatency: [], theirsLatency: [] };
        for (let round = 0; round < ROUNDS; round++) {
          const order = round % 2 === 0 ? [ours, theirs] : [theirs, ours];
          for (const system of order) {
            const rate = await throughput(system, workers, batch);
            const times = await latency(system, workers, batch);
            if (system === ours) {
              row.ours.push(rate);
              row.oursLatency.push(...times);
            } else {
              row.theirs.push(rate);
              row.theirsLatency.push(...times);
            }
          }
        }
        results.push(row);
      }
    }
  } finally {
    await worker.stop();
  }
  return results.map((r) => {
    const [a, b] = [median(r.ours), median(r.theirs)];
    return {
      batch: r.batch,
      workers: r.workers,
      'lib/queue jobs/s': Math.round(a),
      'graphile jobs/s': Math.round(b),
      'throughput ×': Number((a / b).toFixed(2)),
      'lib/queue p50/p99 ms': `${ms(percentile(r.oursLatency, 50))} / ${ms(percentile(r.oursLatency, 99))}`,
      'graphile p50/p99 ms': `${ms(percentile(r.theirsLatency, 50))} / ${ms(percentile(r.theirsLatency, 99))}`,
      'p50 ×': Number((percentile(r.oursLatency, 50) / percentile(r.theirsLatency, 50)).toFixed(2)),
      rounds: `${r.ours.map(Math.round).join(', ')} | ${r.theirs.map(Math.round).join(', ')}`,
    };
  });
}
