import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Cron } from 'croner';
import { durationToMs, NonRetriableError } from 'inngest';
import { getDb, type Database, type Tx } from '@/lib/db';
import { log } from '@/lib/log';
import { insertLocalEvents, type AppEvent } from '@/lib/events';
import { claim, finish, processWorkerId, renew, type Queue } from '@/lib/queue';
import {
  DEFAULT_RETRIES,
  evaluateKey,
  parseCron,
  type BackgroundFunction,
  type ReceivedEvent,
  type ScheduledEvent,
  type Step,
  type StepOutput,
} from './define';

/** Inngest's own class, so handlers throw the same error under both runtimes. */
export { NonRetriableError };

const CHANNEL = 'multiverbe_executor';
const RETRY_BASE_MS = 2_000;
const RETRY_MAX_MS = 10 * 60_000;

export interface ExecutorOptions {
  functions: readonly BackgroundFunction[];
  workerId?: string;
  /** How often due sleeps, retries, crons and expired leases are looked for. New events and runs wake it at once. */
  pollMs?: number;
  /** How long a claimed run stays this worker's without a heartbeat; a dead worker's runs are claimed again after it. */
  leaseMs?: number;
  /** Runs this process executes at once. */
  maxParallelRuns?: number;
  /** The clock. Tests move it instead of waiting. */
  now?: () => Date;
}

export interface RunCounts {
  queued: number;
  running: number;
  sleeping: number;
}

export interface ExecutorStatus {
  workerId: string;
  running: boolean;
  lastTickAt: Date | null;
  runs: RunCounts;
}

export interface LocalExecutor {
  readonly workerId: string;
  /** Does everything due now (events, crons, runs and whatever they enqueue) and returns when nothing is left. */
  runUntilIdle(): Promise<void>;
  status(): Promise<ExecutorStatus>;
  /** Stops taking work and waits for the runs in progress. */
  stop(): Promise<void>;
}

/**
 * Runs background functions on Postgres when there is no Inngest server: events become runs, crons
 * become runs, runs are claimed under expiring leases and replayed over their memoized steps.
 */
export async function startLocalExecutor(options: ExecutorOptions): Promise<LocalExecutor> {
  const executor = new Executor(await getDb(), options);
  await executor.start();
  return executor;
}

export async function countRuns(db: Database): Promise<RunCounts> {
  const [row] = await db.query<RunCounts>(
    `select count(*) filter (where status = 'queued') as queued,
            count(*) filter (where status = 'running') as running,
            count(*) filter (where status = 'sleeping') as sleeping
       from private.executor_runs where status in ('queued', 'running', 'sleeping')`,
  );
  return row!;
}

interface ClaimedRun {
  id: string;
  function_id: string;
  event: ReceivedEvent;
  attempt: number;
  concurrency_key: string | null;
}

interface StepRow {
  step_id: string;
  output: unknown;
  error: string | null;
}

type Outcome =
  | { status: 'completed'; output: string }
  | { status: 'sleeping'; until: Date }
  | { status: 'error'; error: unknown }
  /** Another worker holds the run now (our lease expired): leave it alone. */
  | { status: 'lost' };

interface CronTrigger {
  fn: BackgroundFunction;
  expression: string;
  cron: Cron;
}

class LeaseLost extends Error {}

/** A run's life: `queued` (or `sleeping` until `run_at`), `running` under a lease, then `completed` or `failed`; `cancelled` is allowed by the table, and nothing writes it yet. */
export const EXECUTOR_RUN_STATUSES = ['queued', 'running', 'sleeping', 'completed', 'failed', 'cancelled'] as const;

const FUNCTIONS = (list: string) => `jsonb_to_recordset(${list}::text::jsonb) as f (function_id text, concurrency_limit integer)`;

// Runs for the one lease primitive (lib/queue). Due means queued or sleeping past `run_at`, or running
// under a lease that ran out or whose process died. A group already at its concurrency limit is passed
// over, so other keys keep moving. The scope is this executor's functions with their limits (JSON);
// `now` is the executor's clock.
export const executorRuns: Queue = {
  table: 'private.executor_runs',
  idType: 'uuid',
  ready: (t, at) => `${t}.status in ('queued', 'sleeping') and ${t}.run_at <= ${at.now}`,
  leased: (t) => `${t}.status = 'running'`,
  scope: (t, at) => `${t}.function_id in (select f.function_id from ${FUNCTIONS(at.scope)})`,
  order: (t) => `${t}.run_at, ${t}.id`,
  concurrency: {
    by: ['function_id', 'concurrency_key'],
    limit: (t, at) => `(select f.concurrency_limit from ${FUNCTIONS(at.scope)} where f.function_id = ${t}.function_id)`,
  },
  // A worker that died mid-attempt used that attempt up.
  onClaim: () => `status = 'running', attempt = case when r.status = 'running' then r.attempt + 1 else r.attempt end`,
  returning: 'r.id, r.function_id, r.event, r.attempt, r.concurrency_key',
};

// A step result counts only while this worker still holds the run; a worker that lost its lease
// learns it here and stops.
const RECORD_STEP_SQL = `
insert into private.executor_steps (run_id, step_id, output, error)
select $1::uuid, $2::text, $3::text::jsonb, $4::text
 where exists (select 1 from private.executor_runs where id = $1 and lease_owner = $5 and status = 'running')
on conflict do nothing
returning step_id`;

class Executor implements LocalExecutor {
  readonly workerId: string;
  private readonly now: () => Date;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxParallelRuns: number;
  private readonly functions: Map<string, BackgroundFunction>;
  private readonly byEvent = new Map<string, BackgroundFunction[]>();
  private readonly crons: CronTrigger[] = [];
  private readonly functionsJson: string;
  private readonly inFlight = new Set<Promise<void>>();
  private pumping: Promise<boolean> | null = null;
  private pumpAgain = false;
  private stopped = false;
  private lastTickAt: Date | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;
  private leaseTimer: ReturnType<typeof setInterval> | undefined;
  /** Runs this executor holds now. */
  private readonly leased = new Set<string>();
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Database,
    options: ExecutorOptions,
  ) {
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.now = options.now ?? (() => new Date());
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 1_000;
    this.maxParallelRuns = options.maxParallelRuns ?? 10;
    this.functions = new Map(options.functions.map((fn) => [fn.id, fn]));
    if (this.functions.size !== options.functions.length) throw new Error('Two background functions share an id');
    for (const fn of options.functions) {
      for (const trigger of fn.options.triggers) {
        if ('event' in trigger) this.byEvent.set(trigger.event, [...(this.byEvent.get(trigger.event) ?? []), fn]);
        else this.crons.push({ fn, expression: trigger.cron, cron: parseCron(trigger.cron) });
      }
    }
    this.functionsJson = JSON.stringify(
      options.functions.map((fn) => ({ function_id: fn.id, concurrency_limit: fn.options.concurrency?.limit ?? null })),
    );
  }

  async start() {
    // A cron seen for the first time starts at its next instant: no run for instants before it existed.
    for (const { fn, expression, cron } of this.crons) {
      await this.db.query(
        `insert into private.executor_crons (function_id, cron, next_at) values ($1, $2, $3::timestamptz)
         on conflict do nothing`,
        [fn.id, expression, cron.nextRun(this.now()) ?? 'infinity'],
      );
    }
    this.unlisten = await this.db.listen(CHANNEL, () => this.wake());
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.leaseTimer = setInterval(() => void this.renewLeases(), this.leaseMs / 3);
    this.leaseTimer.unref();
    this.wake();
  }

  async runUntilIdle() {
    for (;;) {
      const didWork = await this.pump();
      if (this.inFlight.size > 0) await Promise.race(this.inFlight);
      else if (!didWork) return;
    }
  }

  async status(): Promise<ExecutorStatus> {
    return { workerId: this.workerId, running: !this.stopped, lastTickAt: this.lastTickAt, runs: await countRuns(this.db) };
  }

  async stop() {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.leaseTimer);
    await this.unlisten?.();
    await this.pumping?.catch(() => {});
    await Promise.all(this.inFlight);
  }

  private wake() {
    this.pump().catch((error) => log('error', 'local executor pass failed', { workerId: this.workerId, error }));
  }

  /** One pass over due work; concurrent callers share the pass in progress, which then goes round again. */
  private pump(): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    if (this.pumping) {
      this.pumpAgain = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      let didWork = false;
      try {
        do {
          this.pumpAgain = false;
          this.lastTickAt = this.now();
          if (await this.enqueueDueCrons()) didWork = true;
          while (!this.stopped && (await this.dispatchNextEvent())) didWork = true;
          while (!this.stopped && this.inFlight.size < this.maxParallelRuns) {
            const run = await this.claimNextRun();
            if (!run) break;
            didWork = true;
            this.track(this.execute(run));
          }
        } while (this.pumpAgain && !this.stopped);
        return didWork;
      } finally {
        // Cleared in the same synchronous step that checked `pumpAgain`: a caller arriving later starts a
        // fresh pass instead of joining one that has already looked. (The awaits above run first, so
        // `pumping` is assigned by then.)
        this.pumping = null;
      }
    })();
    return this.pumping;
  }

  private track(run: Promise<void>) {
    this.inFlight.add(run);
    void run.finally(() => {
      this.inFlight.delete(run);
      this.wake(); // a finished run frees a slot and may have sent events
    });
  }

  private async enqueueDueCrons(): Promise<boolean> {
    if (this.crons.length === 0) return false;
    const at = this.now();
    const due = await this.db.query<{ function_id: string; cron: string; next_at: Date }>(
      'select function_id, cron, next_at from private.executor_crons where next_at <= $1',
      [at],
    );
    let enqueued = false;
    for (const row of due) {
      const trigger = this.crons.find((c) => c.fn.id === row.function_id && c.expression === row.cron);
      if (!trigger) continue; // a function or schedule this deployment does not have
      // Only the latest due instant runs: after downtime a cron fires once, not once per missed tick.
      let instant = new Date(row.next_at);
      for (let next = trigger.cron.nextRun(instant); next && next <= at; next = trigger.cron.nextRun(instant)) instant = next;
      const following = trigger.cron.nextRun(at) ?? 'infinity';
      await this.db.transaction(async (tx) => {
        // Whoever moves the cursor owns the instant; the unique (function, instant) key backs that up.
        const moved = await tx.query(
          `update private.executor_crons set next_at = $4::timestamptz
            where function_id = $1 and cron = $2 and next_at = $3
            returning 1`,
          [row.function_id, row.cron, row.next_at, following],
        );
        if (moved.length === 0) return;
        const event: ScheduledEvent = { id: randomUUID(), name: 'inngest/scheduled.timer', data: { cron: row.cron }, ts: instant.getTime() };
        await this.enqueue(tx, trigger.fn, event, { scheduledAt: instant });
        enqueued = true;
      });
    }
    return enqueued;
  }

  private async dispatchNextEvent(): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<{ id: string; name: string; data: unknown; created_at: Date }>(
        `update private.executor_events set dispatched_at = $1
          where id = (select id from private.executor_events where dispatched_at is null
                       order by created_at, id limit 1 for update skip locked)
          returning id, name, data, created_at`,
        [this.now()],
      );
      if (!row) return false;
      const event = { id: row.id, name: row.name, data: row.data, ts: new Date(row.created_at).getTime() } as ReceivedEvent;
      for (const fn of this.byEvent.get(row.name) ?? []) await this.enqueue(tx, fn, event, { eventId: row.id });
      return true;
    });
  }

  private async enqueue(tx: Tx, fn: BackgroundFunction, event: ReceivedEvent, source: { eventId: string } | { scheduledAt: Date }) {
    const { concurrency, idempotency } = fn.options;
    const concurrencyKey = concurrency ? (concurrency.key ? evaluateKey(concurrency.key, event) : '') : null;
    const idempotencyKey = idempotency ? evaluateKey(idempotency, event) : null;
    if (idempotencyKey !== null) {
      // Two dispatchers with events of the same key must not both see "no run yet".
      await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`idempotency\u001f${fn.id}\u001f${idempotencyKey}`]);
    }
    await tx.query(
      `insert into private.executor_runs (function_id, event_id, scheduled_at, event, concurrency_key, idempotency_key, run_at)
       select $1, $2::uuid, $3::timestamptz, $4::text::jsonb, $5::text, $6::text, $7::timestamptz
        where $6::text is null or not exists (
          select 1 from private.executor_runs
           where function_id = $1 and idempotency_key = $6::text and created_at > now() - interval '24 hours')
       on conflict do nothing`,
      [
        fn.id,
        'eventId' in source ? source.eventId : null,
        'scheduledAt' in source ? source.scheduledAt : null,
        JSON.stringify(event),
        concurrencyKey,
        idempotencyKey,
        this.now(),
      ],
    );
  }

  private async claimNextRun(): Promise<ClaimedRun | null> {
    const [run] = await claim<ClaimedRun>(this.db, executorRuns, {
      owner: this.workerId,
      worker: processWorkerId(),
      leaseSeconds: this.leaseMs / 1000,
      now: this.now(),
      scope: this.functionsJson,
    });
    return run ?? null;
  }

  /** Executes one claimed run to its next resting point and records where it got. Never throws. */
  private async execute(run: ClaimedRun): Promise<void> {
    const fn = this.functions.get(run.function_id)!;
    const retries = fn.options.retries ?? DEFAULT_RETRIES;
    this.leased.add(run.id);
    try {
      // Only reclaiming expired leases pushes the attempt past the limit: every worker died on this run.
      const lostEveryWorker: Outcome = { status: 'error', error: new NonRetriableError('The run lost its worker on every attempt') };
      const { outcome, attempt } =
        run.attempt > retries ? { outcome: lostEveryWorker, attempt: run.attempt } : await this.invoke(fn, run, retries);
      await this.finish(run, outcome, attempt, retries);
    } catch (error) {
      // Nothing was recorded: the lease runs out and a later claim resumes from the memoized steps.
      log('error', 'local executor could not record a run', { runId: run.id, functionId: run.function_id, error });
    } finally {
      this.leased.delete(run.id);
    }
  }

  /**
   * Replays the handler from the top. Memoized steps return their stored results; the first new step runs,
   * and so do the ones after it, until the handler returns, throws, sleeps or a step needs a retry.
   */
  private async invoke(fn: BackgroundFunction, run: ClaimedRun, retries: number): Promise<{ outcome: Outcome; attempt: number }> {
    const rows = await this.db.query<StepRow>('select step_id, output, error from private.executor_steps where run_id = $1', [run.id]);
    const memo = new Map(rows.map((row) => [row.step_id, row]));
    const seen = new Map<string, number>();
    // Retries count per step, as in Inngest: completing a step starts the next one at attempt 0.
    let progressed = false;
    const attempt = () => (progressed ? 0 : run.attempt);

    let halt!: (outcome: Outcome) => void;
    const halted = new Promise<Outcome>((resolve) => (halt = resolve));
    // A step that ends this invocation settles `halted` and leaves the handler awaiting forever; throwing
    // instead could be swallowed by a try/catch in the handler.
    const stopHere = (outcome: Outcome): Promise<never> => {
      halt(outcome);
      return new Promise<never>(() => {});
    };
    // The same id used twice gets a suffix, as Inngest does, so steps in loops memoize one by one.
    const stepId = (id: string) => {
      const n = seen.get(id) ?? 0;
      seen.set(id, n + 1);
      return n === 0 ? id : `${id}:${n}`;
    };
    const record = async (db: Tx, id: string, output: string | null, error: string | null) =>
      (await db.query(RECORD_STEP_SQL, [run.id, id, output, error, this.workerId])).length > 0;

    const sleepStep = async (rawId: string, wakeAt: () => Date): Promise<void> => {
      const id = stepId(rawId);
      const done = memo.get(id);
      let until: Date;
      if (done) {
        until = new Date((done.output as { wakeAt: string }).wakeAt);
      } else {
        until = wakeAt();
        if (Number.isNaN(until.getTime())) throw new NonRetriableError(`Step "${rawId}": not a date`);
        if (!(await record(this.db, id, JSON.stringify({ wakeAt: until.toISOString() }), null))) return stopHere({ status: 'lost' });
        progressed = true;
      }
      if (until.getTime() > this.now().getTime()) return stopHere({ status: 'sleeping', until });
    };

    const step: Step = {
      run: async <T>(rawId: string, body: () => T): Promise<StepOutput<T>> => {
        const id = stepId(rawId);
        const done = memo.get(id);
        if (done) {
          if (done.error !== null) throw new NonRetriableError(done.error);
          return done.output as StepOutput<T>;
        }
        let json: string;
        try {
          json = JSON.stringify((await body()) ?? null);
        } catch (error) {
          if (!isNonRetriable(error) && attempt() < retries) return stopHere({ status: 'error', error });
          // Out of attempts: the error is the step's result, thrown into the handler, which may catch it.
          if (!(await record(this.db, id, null, errorMessage(error)))) return stopHere({ status: 'lost' });
          throw error;
        }
        if (!(await record(this.db, id, json, null))) return stopHere({ status: 'lost' });
        progressed = true;
        return JSON.parse(json) as StepOutput<T>;
      },
      sleep: (id, duration) => sleepStep(id, () => new Date(this.now().getTime() + durationToMs(duration))),
      sleepUntil: (id, time) => sleepStep(id, () => new Date(time)),
      sendEvent: async (rawId, events) => {
        const id = stepId(rawId);
        const done = memo.get(id);
        if (done) return done.output as { ids: string[] };
        const list: readonly AppEvent[] = Array.isArray(events) ? events : [events as AppEvent];
        // The events and the step's record commit together: replays never send them twice.
        const sent = await this.db
          .transaction(async (tx) => {
            const result = await insertLocalEvents(tx, list);
            if (!(await record(tx, id, JSON.stringify(result), null))) throw new LeaseLost();
            return result;
          })
          .catch((error: unknown) => {
            if (error instanceof LeaseLost) return null;
            throw error;
          });
        if (!sent) return stopHere({ status: 'lost' });
        progressed = true;
        return sent;
      },
    };

    const handled = Promise.resolve()
      .then(() => fn.handler({ event: run.event, step, runId: run.id, attempt: run.attempt }))
      .then((output): Outcome => ({ status: 'completed', output: JSON.stringify(output ?? null) }))
      .catch((error: unknown): Outcome => ({ status: 'error', error }));
    const outcome = await Promise.race([handled, halted]);
    return { outcome, attempt: attempt() };
  }

  private async finish(run: ClaimedRun, outcome: Outcome, attempt: number, retries: number) {
    if (outcome.status === 'lost') return;
    const at = this.now();
    let next: { status: string; runAt: Date | null; attempt: number; error: string | null; output: string | null; finishedAt: Date | null };
    if (outcome.status === 'completed') {
      next = { status: 'completed', runAt: null, attempt, error: null, output: outcome.output, finishedAt: at };
    } else if (outcome.status === 'sleeping') {
      next = { status: 'sleeping', runAt: outcome.until, attempt, error: null, output: null, finishedAt: null };
    } else if (isNonRetriable(outcome.error) || attempt >= retries) {
      next = { status: 'failed', runAt: null, attempt, error: errorMessage(outcome.error), output: null, finishedAt: at };
      log('error', 'background run failed', { runId: run.id, functionId: run.function_id, attempt, error: outcome.error });
    } else {
      const runAt = new Date(at.getTime() + retryDelayMs(attempt));
      next = { status: 'queued', runAt, attempt: attempt + 1, error: errorMessage(outcome.error), output: null, finishedAt: null };
      log('warn', 'background run will retry', { runId: run.id, functionId: run.function_id, attempt, runAt, error: outcome.error });
    }
    await finish(this.db, executorRuns, {
      owner: this.workerId,
      rows: [{ id: run.id, status: next.status, run_at: next.runAt, attempt: next.attempt, error: next.error, output: next.output, finished_at: next.finishedAt }],
      types: { status: 'text', run_at: 'timestamptz', attempt: 'integer', error: 'text', output: 'text', finished_at: 'timestamptz' },
      set: (r, v) =>
        `status = ${v}.status, run_at = coalesce(${v}.run_at, ${r}.run_at), attempt = ${v}.attempt, error = ${v}.error,
         output = ${v}.output::jsonb, finished_at = ${v}.finished_at`,
    });
  }

  /** Keeps the leases of the runs in progress, all in one statement: a long step must not look like a dead worker. */
  private async renewLeases() {
    const ids = [...this.leased];
    try {
      await renew(this.db, executorRuns, { owner: this.workerId, ids, leaseSeconds: this.leaseMs / 1000, now: this.now() });
    } catch (error) {
      log('warn', 'local executor could not renew its leases', { runIds: ids, error });
    }
  }
}

/** Exponential backoff with jitter: between half and all of min(2 s · 2^attempt, 10 min). */
function retryDelayMs(attempt: number): number {
  const ceiling = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** attempt);
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

// By name as well as class: a second copy of the SDK (ESM and CJS builds) has its own class.
function isNonRetriable(error: unknown): boolean {
  return error instanceof Error && error.name === 'NonRetriableError';
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
