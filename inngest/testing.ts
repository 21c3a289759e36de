// Tests only: one interface over the two runtimes of the background functions, so a test holds for both.
import { randomUUID } from 'node:crypto';
import { InngestTestEngine, mockCtx } from '@inngest/test';
import type { Cron } from 'croner';
import { vi } from 'vitest';
import { resetConfigForTests } from '@/lib/config';
import { getDb } from '@/lib/db';
import { inngest, type AppEvent } from '@/lib/events';
import { parseCron, type BackgroundFunction, type ReceivedEvent } from './define';
import { startLocalExecutor } from './executor';

/**
 * The local executor (the embedded default) runs the handlers on Postgres; Inngest (production) runs
 * `inngestFunction`, here through @inngest/test, Inngest's engine for tests: the same step-by-step
 * execution and memoization, with the steps Inngest itself carries out (sleeps, sent events) mocked.
 */
export const RUNTIMES = ['local executor', 'Inngest'] as const;
export type RuntimeName = (typeof RUNTIMES)[number];

export interface Run {
  event: { name: string; data: Record<string, unknown>; ts: number };
  status: 'queued' | 'running' | 'sleeping' | 'completed' | 'failed';
  /** The time a sleeping run asked to sleep until; null unless sleeping. */
  wakeAt: Date | null;
  /** What the run returned, JSON round-tripped as both runtimes store it. */
  output: unknown;
  error: string | null;
}

export interface TestRuntime {
  readonly name: RuntimeName;
  /**
   * Does everything due by the clock: crons fire (once, for the latest instant due), events sent so far
   * start the functions they trigger, runs whose sleep is over go on; returns when nothing is left.
   */
  runUntilIdle(): Promise<void>;
  /** The runs of one function, oldest first (runs started at the same instant of a frozen clock in any order). */
  runs(functionId: string): Promise<Run[]>;
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  functions: readonly BackgroundFunction[];
  /** The clock that says what is due (crons, sleeps). The functions themselves read the global one. */
  now?: () => Date;
}

export async function startRuntime(name: RuntimeName, options: RuntimeOptions): Promise<TestRuntime> {
  return name === 'local executor' ? startLocal(options) : new InngestRuntime(options);
}

async function startLocal({ functions, now }: RuntimeOptions): Promise<TestRuntime> {
  // Nothing runs behind the test's back: runUntilIdle does the work.
  const executor = await startLocalExecutor({ functions, now, pollMs: 60_000 });
  return {
    name: 'local executor',
    runUntilIdle: () => executor.runUntilIdle(),
    async runs(functionId) {
      const rows = await (await getDb()).query<{ event: Run['event']; status: Run['status']; run_at: Date; output: unknown; error: string | null }>(
        `select event, status, run_at, output, error from private.executor_runs where function_id = $1 order by created_at, id`,
        [functionId],
      );
      return rows.map((r) => ({ event: r.event, status: r.status, wakeAt: r.status === 'sleeping' ? r.run_at : null, output: r.output, error: r.error }));
    },
    stop: () => executor.stop(),
  };
}

/**
 * The steps of each function that Inngest carries out itself, which its engine for tests runs only as
 * mocks: a sleep ends when this runtime's clock reaches the time asked for, a send hands the events to
 * this runtime. A function that sleeps or sends in a step not listed here fails, saying so.
 */
const INNGEST_STEPS: Record<string, { sleeps?: readonly string[]; sends?: readonly string[] }> = {
  'booking-reminder-smart': { sleeps: ['wait-until-due'] },
  'deliver-messages': { sleeps: ['wait-for-undo-window'] },
  'deliver-account-mail': { sleeps: ['wait-for-retry-time'] },
  'process-topic-request': { sends: ['wake-stalled-queues', 'wake-for-next-request'] },
};

interface InngestRun extends Run {
  /** Ends the sleep; resolves when the run sleeps again or ends. */
  wake?: () => Promise<void>;
}

/** The step tools of an execution, as @inngest/test's spies. */
type Spies = Record<string, { mock: { calls: unknown[][] } }>;

/**
 * Inngest for one test: events reach it the way production sends them (lib/events with Inngest Cloud
 * configured, that is the client's `send`), and it starts the functions they trigger, fires crons by the
 * clock and wakes sleeping runs, one run at a time, each run executed by @inngest/test.
 */
class InngestRuntime implements TestRuntime {
  readonly name = 'Inngest';
  private readonly now: () => Date;
  private readonly byEvent = new Map<string, BackgroundFunction[]>();
  private readonly crons: { fn: BackgroundFunction; expression: string; cron: Cron; next: Date | null }[] = [];
  private readonly received: ReceivedEvent[] = [];
  private readonly history = new Map<string, InngestRun[]>();
  private readonly restore: () => void;

  constructor({ functions, now = () => new Date() }: RuntimeOptions) {
    this.now = now;
    for (const fn of functions) {
      for (const trigger of fn.options.triggers) {
        if ('event' in trigger) this.byEvent.set(trigger.event, [...(this.byEvent.get(trigger.event) ?? []), fn]);
        else {
          const cron = parseCron(trigger.cron);
          this.crons.push({ fn, expression: trigger.cron, cron, next: cron.nextRun(now()) });
        }
      }
    }
    const saved = { INNGEST_EVENT_KEY: process.env.INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY: process.env.INNGEST_SIGNING_KEY };
    Object.assign(process.env, { INNGEST_EVENT_KEY: 'test-event-key', INNGEST_SIGNING_KEY: 'signkey-test-0000' });
    resetConfigForTests();
    const send = vi.spyOn(inngest, 'send').mockImplementation((async (payload: AppEvent | AppEvent[]) => ({ ids: this.receive(payload) })) as never);
    this.restore = () => {
      send.mockRestore();
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      resetConfigForTests();
    };
  }

  async runUntilIdle() {
    for (let busy = true; busy; ) {
      busy = false;
      const at = this.now();
      for (const c of this.crons) {
        if (!c.next || c.next > at) continue;
        let instant = c.next;
        for (let next = c.cron.nextRun(instant); next && next <= at; next = c.cron.nextRun(instant)) instant = next;
        c.next = c.cron.nextRun(at);
        await this.execute(c.fn, { id: randomUUID(), name: 'inngest/scheduled.timer', data: { cron: c.expression }, ts: instant.getTime() });
        busy = true;
      }
      for (let event = this.received.shift(); event; event = this.received.shift()) {
        for (const fn of this.byEvent.get(event.name) ?? []) await this.execute(fn, event);
        busy = true;
      }
      for (const run of [...this.history.values()].flat()) {
        if (run.status !== 'sleeping' || run.wakeAt! > at) continue;
        await run.wake!();
        busy = true;
      }
    }
  }

  async runs(functionId: string): Promise<Run[]> {
    return (this.history.get(functionId) ?? []).map(({ event, status, wakeAt, output, error }) => ({ event, status, wakeAt, output, error }));
  }

  async stop() {
    // Runs still asleep stay so: nothing will wake them.
    this.restore();
  }

  private receive(payload: AppEvent | readonly AppEvent[]): string[] {
    const events = (Array.isArray(payload) ? payload : [payload as AppEvent]).map(
      ({ name, data }) => ({ id: randomUUID(), name, data, ts: this.now().getTime() }) as ReceivedEvent,
    );
    this.received.push(...events);
    return events.map((event) => event.id);
  }

  /** Runs `fn` for `event` until it ends or sleeps. */
  private async execute(fn: BackgroundFunction, event: ReceivedEvent): Promise<void> {
    const run: InngestRun = { event: event as Run['event'], status: 'running', wakeAt: null, output: null, error: null };
    this.history.set(fn.id, [...(this.history.get(fn.id) ?? []), run]);
    const { sleeps = [], sends = [] } = INNGEST_STEPS[fn.id] ?? {};
    const mocked = new Set([...sleeps, ...sends]);
    // The step tools of the execution in progress (the engine replays the handler once per step).
    let spies!: Spies;
    const asked = (tool: 'sleepUntil' | 'sendEvent', id: string): unknown => spies[tool]!.mock.calls.findLast(([stepId]) => stepId === id)?.[1];
    let paused = deferred();

    const engine = new InngestTestEngine({
      function: fn.inngestFunction,
      events: [event as never],
      transformCtx: (raw) => {
        const ctx = mockCtx(raw);
        spies = ctx.step as unknown as Spies;
        const onlyMocked = (tool: (...args: unknown[]) => unknown) => (id: string, ...rest: unknown[]) => {
          if (!mocked.has(id)) throw new Error(`${fn.id}: Inngest carries out step "${id}" itself; list it in INNGEST_STEPS (inngest/testing.ts)`);
          return tool(id, ...rest);
        };
        const { sleep, sleepUntil, sendEvent } = ctx.step as unknown as Record<string, (...args: unknown[]) => unknown>;
        return { ...ctx, step: { ...ctx.step, sleep: onlyMocked(sleep!), sleepUntil: onlyMocked(sleepUntil!), sendEvent: onlyMocked(sendEvent!) } } as never;
      },
      steps: [
        ...sleeps.map((id) => ({
          id,
          handler: async () => {
            const until = asked('sleepUntil', id);
            if (until === undefined) throw new Error(`${fn.id}: step "${id}" is not a sleepUntil, the only sleep modelled here`);
            run.status = 'sleeping';
            run.wakeAt = new Date(until as string | Date);
            const woken = deferred();
            run.wake = () => {
              paused = deferred();
              woken.resolve();
              return paused.promise;
            };
            paused.resolve();
            await woken.promise;
            run.status = 'running';
            run.wakeAt = null;
            return null;
          },
        })),
        ...sends.map((id) => ({ id, handler: () => ({ ids: this.receive(asked('sendEvent', id) as AppEvent | AppEvent[]) }) })),
      ],
    });

    void engine
      .execute()
      .then(
        ({ result, error }) => {
          run.status = error === undefined ? 'completed' : 'failed';
          run.output = error === undefined ? JSON.parse(JSON.stringify(result ?? null)) : null;
          run.error = error === undefined ? null : errorMessage(error);
        },
        (error: unknown) => {
          run.status = 'failed';
          run.error = errorMessage(error);
        },
      )
      .finally(() => paused.resolve());
    await paused.promise;
  }
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function errorMessage(error: unknown): string {
  return typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error);
}
