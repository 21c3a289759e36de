import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { asService, withUser } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { sendEvent } from '@/lib/events';
import { defineFunction } from './define';
import { NonRetriableError, startLocalExecutor, type ExecutorOptions, type LocalExecutor } from './executor';

declare module '@/lib/events' {
  interface Events {
    'test/sleep': { until: string };
    'test/work': { key: string; n: number };
    'test/flaky': { id: string };
    'test/crash': { id: string };
    'test/outbox': { n: number };
    'test/fan-out': { id: string };
    'test/fanned': { from: string };
    'test/once': { userId: string };
  }
}

setupTestDatabase();

const executors: LocalExecutor[] = [];
afterEach(async () => {
  await Promise.all(executors.splice(0).map((executor) => executor.stop()));
});

async function start(options: ExecutorOptions) {
  const executor = await startLocalExecutor(options);
  executors.push(executor);
  return executor;
}

/** A clock the test moves by hand. */
function clock(iso: string) {
  let current = new Date(iso).getTime();
  return {
    now: () => new Date(current),
    set: (to: string | Date) => {
      current = new Date(to).getTime();
    },
  };
}

interface RunRow {
  id: string;
  status: string;
  attempt: number;
  run_at: Date;
  error: string | null;
  output: unknown;
  scheduled_at: Date | null;
  concurrency_key: string | null;
  lease_owner: string | null;
}

function runsOf(functionId: string): Promise<RunRow[]> {
  return asService((tx) =>
    tx.query<RunRow>('select * from private.executor_runs where function_id = $1 order by created_at, id', [functionId]),
  );
}

async function onlyRun(functionId: string): Promise<RunRow> {
  const runs = await runsOf(functionId);
  expect(runs).toHaveLength(1);
  return runs[0]!;
}

/** Waits for the background executor to reach a state; the test's own timeout bounds it. */
async function waitFor(condition: () => boolean | Promise<boolean>) {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 5));
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('local executor', () => {
  it('fires a cron at its instant in its time zone, once across executors, without catching up every missed tick', async () => {
    const fired: string[] = [];
    const fn = defineFunction({ id: 'test-cron-rome', triggers: [{ cron: 'TZ=Europe/Rome 0 6 * * *' }] }, async ({ event, step }) => {
      await step.run('record', () => {
        fired.push(new Date(event.ts).toISOString());
      });
    });
    const time = clock('2026-07-01T03:59:00Z'); // 05:59 in Rome (summer time, UTC+2)
    const a = await start({ functions: [fn], now: time.now });
    const b = await start({ functions: [fn], now: time.now }); // a second process racing for the same instants
    const idle = () => Promise.all([a.runUntilIdle(), b.runUntilIdle()]);

    await idle();
    expect(fired).toEqual([]);

    time.set('2026-07-01T04:00:00Z'); // 06:00 in Rome
    await idle();
    expect(fired).toEqual(['2026-07-01T04:00:00.000Z']);

    time.set('2026-07-01T06:00:00Z'); // 06:00 UTC is 08:00 in Rome
    await idle();
    expect(fired).toHaveLength(1);

    // Three days down: one run, for the latest missed instant.
    time.set('2026-07-04T05:00:00Z');
    await idle();
    expect(fired).toEqual(['2026-07-01T04:00:00.000Z', '2026-07-04T04:00:00.000Z']);

    // Winter time (UTC+1): 06:00 in Rome is 05:00 UTC.
    time.set('2026-12-01T04:59:59Z');
    await idle();
    expect(fired.at(-1)).toBe('2026-11-30T05:00:00.000Z');
    time.set('2026-12-01T05:00:00Z');
    await idle();
    expect(fired.at(-1)).toBe('2026-12-01T05:00:00.000Z');

    const runs = await runsOf('test-cron-rome');
    expect(runs.map((run) => run.scheduled_at!.toISOString())).toEqual(fired);
    expect(runs.every((run) => run.status === 'completed')).toBe(true);
  });

  it('runs the tail of a sleeping run only once its time has come, in whichever process is up then', async () => {
    const calls: string[] = [];
    const fn = defineFunction({ id: 'test-sleep', triggers: [{ event: 'test/sleep' }] }, async ({ event, step }) => {
      await step.run('before', () => calls.push('before'));
      await step.sleepUntil('wait', event.data.until);
      await step.run('after', () => calls.push('after'));
      return 'woke';
    });
    const time = clock('2026-03-01T10:00:00Z');
    const first = await start({ functions: [fn], now: time.now });
    await sendEvent({ name: 'test/sleep', data: { until: '2026-03-01T12:00:00Z' } });
    await first.runUntilIdle();
    expect(calls).toEqual(['before']);
    let run = await onlyRun('test-sleep');
    expect(run.status).toBe('sleeping');
    expect(run.run_at.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(run.lease_owner).toBeNull();

    time.set('2026-03-01T11:59:59Z');
    await first.runUntilIdle();
    expect(calls).toEqual(['before']);

    // No process kept a timer: a restarted executor picks the run up when it is due.
    await first.stop();
    const second = await start({ functions: [fn], now: time.now });
    time.set('2026-03-01T12:00:00Z');
    await second.runUntilIdle();
    expect(calls).toEqual(['before', 'after']);
    run = await onlyRun('test-sleep');
    expect(run.status).toBe('completed');
    expect(run.output).toBe('woke');
  });

  it('runs at most `limit` runs per key at once, while other keys progress', async () => {
    const active = { A: 0, B: 0 };
    const peak = { A: 0, B: 0 };
    const done = { A: 0, B: 0 };
    const gates: Array<() => void> = [];
    let gatesOpen = false;
    const fn = defineFunction(
      { id: 'test-concurrency', triggers: [{ event: 'test/work' }], concurrency: { limit: 2, key: 'event.data.key' } },
      async ({ event, step }) => {
        const key = event.data.key as 'A' | 'B';
        await step.run('work', async () => {
          active[key] += 1;
          peak[key] = Math.max(peak[key], active[key]);
          if (key === 'A' && !gatesOpen) await new Promise<void>((resolve) => gates.push(resolve));
          active[key] -= 1;
          done[key] += 1;
        });
      },
    );
    // Two executors compete for the same runs; the limit holds across them.
    const a = await start({ functions: [fn], maxParallelRuns: 10 });
    const b = await start({ functions: [fn], maxParallelRuns: 10 });
    await sendEvent([
      ...[1, 2, 3, 4, 5, 6].map((n) => ({ name: 'test/work' as const, data: { key: 'A', n } })),
      ...[1, 2].map((n) => ({ name: 'test/work' as const, data: { key: 'B', n } })),
    ]);
    try {
      // Key B finishes while both A slots are taken and four A runs wait.
      await waitFor(() => done.B === 2 && gates.length >= 2);
      expect(done.A).toBe(0);
      const aStatuses = (await runsOf('test-concurrency')).filter((run) => run.concurrency_key === 'A').map((run) => run.status);
      expect(aStatuses.sort()).toEqual(['queued', 'queued', 'queued', 'queued', 'running', 'running']);

      // Open the A gates one by one as runs reach them.
      while (done.A < 6) {
        await waitFor(() => gates.length > 0 || done.A === 6);
        gates.shift()?.();
      }
      await Promise.all([a.runUntilIdle(), b.runUntilIdle()]);
      expect(peak.A).toBe(2);
      expect(peak.B).toBeLessThanOrEqual(2);
      expect((await runsOf('test-concurrency')).map((run) => run.status)).toEqual(Array(8).fill('completed'));
    } finally {
      gatesOpen = true;
      for (const open of gates.splice(0)) open();
    }
  });

  it('does not count sleeping runs against the concurrency limit', async () => {
    const calls: string[] = [];
    const fn = defineFunction(
      { id: 'test-concurrency-sleep', triggers: [{ event: 'test/work' }], concurrency: { limit: 1, key: 'event.data.key' } },
      async ({ event, step }) => {
        await step.run('start', () => calls.push(`start ${event.data.n}`));
        await step.sleep('nap', '1h');
        await step.run('end', () => calls.push(`end ${event.data.n}`));
      },
    );
    const time = clock('2026-05-01T08:00:00Z');
    const executor = await start({ functions: [fn], now: time.now });
    await sendEvent([
      { name: 'test/work', data: { key: 'K', n: 1 } },
      { name: 'test/work', data: { key: 'K', n: 2 } },
    ]);
    await executor.runUntilIdle();
    expect(calls.sort()).toEqual(['start 1', 'start 2']);
    time.set('2026-05-01T09:00:00Z');
    await executor.runUntilIdle();
    expect(calls.slice(2).sort()).toEqual(['end 1', 'end 2']);
  });

  it('replays a retried run over its memoized steps', async () => {
    const calls = { first: 0, second: 0 };
    const seenFirst: unknown[] = [];
    const fn = defineFunction({ id: 'test-memo', triggers: [{ event: 'test/flaky' }] }, async ({ step }) => {
      const first = await step.run('first', () => {
        calls.first += 1;
        return { at: new Date('2026-01-01T00:00:00Z'), n: 42 };
      });
      seenFirst.push(first);
      const second = await step.run('second', () => {
        calls.second += 1;
        if (calls.second < 3) throw new Error('flaky');
        return 'ok';
      });
      return { first, second };
    });
    const time = clock('2026-02-01T00:00:00Z');
    const executor = await start({ functions: [fn], now: time.now });
    await sendEvent({ name: 'test/flaky', data: { id: 'x' } });
    for (let i = 0; i < 3; i += 1) {
      await executor.runUntilIdle();
      time.set(new Date(time.now().getTime() + 3_600_000));
    }
    expect(calls).toEqual({ first: 1, second: 3 });
    // The first execution and both replays saw the same (JSON) value.
    expect(seenFirst).toEqual(Array(3).fill({ at: '2026-01-01T00:00:00.000Z', n: 42 }));
    const run = await onlyRun('test-memo');
    expect(run.status).toBe('completed');
    expect(run.output).toEqual({ first: { at: '2026-01-01T00:00:00.000Z', n: 42 }, second: 'ok' });
  });

  it('retries with growing backoff, then fails the run with the error', async () => {
    let calls = 0;
    const fn = defineFunction({ id: 'test-retries', triggers: [{ event: 'test/flaky' }], retries: 2 }, async ({ step }) => {
      await step.run('call-upstream', () => {
        calls += 1;
        throw new Error(`upstream said no (${calls})`);
      });
    });
    const time = clock('2026-02-01T00:00:00Z');
    const executor = await start({ functions: [fn], now: time.now });
    await sendEvent({ name: 'test/flaky', data: { id: 'y' } });

    const delays: number[] = [];
    for (const expectedAttempt of [1, 2]) {
      await executor.runUntilIdle();
      const run = await onlyRun('test-retries');
      expect(run).toMatchObject({ status: 'queued', attempt: expectedAttempt, error: `upstream said no (${expectedAttempt})` });
      const delay = run.run_at.getTime() - time.now().getTime();
      delays.push(delay);
      // Not before the backoff has passed.
      time.set(new Date(run.run_at.getTime() - 1));
      await executor.runUntilIdle();
      expect(calls).toBe(expectedAttempt);
      time.set(run.run_at);
    }
    // Attempt n waits between half and all of 2 s · 2^n.
    expect(delays[0]).toBeGreaterThanOrEqual(1_000);
    expect(delays[0]).toBeLessThanOrEqual(2_000);
    expect(delays[1]).toBeGreaterThanOrEqual(2_000);
    expect(delays[1]).toBeLessThanOrEqual(4_000);

    await executor.runUntilIdle();
    expect(calls).toBe(3);
    const run = await onlyRun('test-retries');
    expect(run).toMatchObject({ status: 'failed', attempt: 2, error: 'upstream said no (3)' });
  });

  it('fails at once on a NonRetriableError', async () => {
    let calls = 0;
    const fn = defineFunction({ id: 'test-non-retriable', triggers: [{ event: 'test/flaky' }] }, async ({ step }) => {
      await step.run('validate', () => {
        calls += 1;
        throw new NonRetriableError('bad input');
      });
    });
    const executor = await start({ functions: [fn] });
    await sendEvent({ name: 'test/flaky', data: { id: 'z' } });
    await executor.runUntilIdle();
    expect(calls).toBe(1);
    expect(await onlyRun('test-non-retriable')).toMatchObject({ status: 'failed', attempt: 0, error: 'bad input' });
  });

  it('completes a run whose worker died mid-run on another worker, without repeating completed steps', async () => {
    const calls = { a: 0, b: 0, c: 0 };
    const hung = deferred();
    const bStarted = deferred();
    const fn = defineFunction({ id: 'test-recovery', triggers: [{ event: 'test/crash' }] }, async ({ step }) => {
      const a = await step.run('a', () => {
        calls.a += 1;
        return 'A';
      });
      const b = await step.run('b', async () => {
        calls.b += 1;
        if (calls.b === 1) {
          bStarted.resolve();
          await hung.promise; // the first worker freezes here
        }
        return 'B';
      });
      await step.run('c', () => {
        calls.c += 1;
      });
      return [a, b];
    });
    // The dying worker's clock stands still, so the lease it keeps renewing ends at 10:00:30.
    const frozen = clock('2026-04-01T10:00:00Z');
    const dying = await start({ functions: [fn], workerId: 'dying', now: frozen.now, leaseMs: 30_000 });
    await sendEvent({ name: 'test/crash', data: { id: 'c1' } });
    await bStarted.promise;
    expect((await onlyRun('test-recovery')).lease_owner).toBe('dying');

    try {
      const later = clock('2026-04-01T10:05:00Z');
      const rescuer = await start({ functions: [fn], workerId: 'rescuer', now: later.now });
      await rescuer.runUntilIdle();
      expect(calls).toEqual({ a: 1, b: 2, c: 1 });
      expect(await onlyRun('test-recovery')).toMatchObject({ status: 'completed', output: ['A', 'B'], lease_owner: null });
    } finally {
      hung.resolve();
    }
    // The frozen worker comes back: its late result is refused and it runs nothing more.
    await dying.stop();
    expect(calls).toEqual({ a: 1, b: 2, c: 1 });
    expect(await onlyRun('test-recovery')).toMatchObject({ status: 'completed', output: ['A', 'B'] });
  });

  it('emits nothing for an event sent in a transaction that rolls back', async () => {
    const received: number[] = [];
    const fn = defineFunction({ id: 'test-outbox', triggers: [{ event: 'test/outbox' }] }, async ({ event, step }) => {
      await step.run('receive', () => received.push(event.data.n));
    });
    const executor = await start({ functions: [fn] });
    await expect(
      asService(async (tx) => {
        await sendEvent({ name: 'test/outbox', data: { n: 1 } }, tx);
        throw new Error('the data write failed');
      }),
    ).rejects.toThrow('the data write failed');
    // A request's own transaction (role authenticated) can send too.
    await withUser({ id: randomUUID(), email: 'someone@example.com' }, (tx) => sendEvent({ name: 'test/outbox', data: { n: 2 } }, tx));
    await executor.runUntilIdle();
    expect(received).toEqual([2]);
    const events = await asService((tx) => tx.query(`select data from private.executor_events where name = 'test/outbox'`));
    expect(events).toEqual([{ data: { n: 2 } }]);
  });

  it('sends events from a step once, however often the handler is replayed', async () => {
    let failures = 0;
    const fanned: string[] = [];
    const fanOut = defineFunction({ id: 'test-fan-out', triggers: [{ event: 'test/fan-out' }] }, async ({ event, step }) => {
      await step.sendEvent('announce', [
        { name: 'test/fanned', data: { from: `${event.data.id}-1` } },
        { name: 'test/fanned', data: { from: `${event.data.id}-2` } },
      ]);
      if (failures < 2) {
        failures += 1;
        throw new Error('fails after sending');
      }
    });
    const receiver = defineFunction({ id: 'test-fanned', triggers: [{ event: 'test/fanned' }] }, async ({ event, step }) => {
      await step.run('receive', () => fanned.push(event.data.from));
    });
    const time = clock('2026-02-01T00:00:00Z');
    const executor = await start({ functions: [fanOut, receiver], now: time.now });
    await sendEvent({ name: 'test/fan-out', data: { id: 'f' } });
    for (let i = 0; i < 3; i += 1) {
      await executor.runUntilIdle();
      time.set(new Date(time.now().getTime() + 3_600_000));
    }
    expect((await onlyRun('test-fan-out')).status).toBe('completed');
    expect(fanned.sort()).toEqual(['f-1', 'f-2']);
  });

  it('starts one run per idempotency key', async () => {
    const seen: string[] = [];
    const fn = defineFunction(
      { id: 'test-idempotency', triggers: [{ event: 'test/once' }], idempotency: 'event.data.userId' },
      async ({ event, step }) => {
        await step.run('welcome', () => seen.push(event.data.userId));
      },
    );
    const executor = await start({ functions: [fn] });
    await sendEvent([
      { name: 'test/once', data: { userId: 'u1' } },
      { name: 'test/once', data: { userId: 'u1' } },
      { name: 'test/once', data: { userId: 'u2' } },
    ]);
    await executor.runUntilIdle();
    expect(seen.sort()).toEqual(['u1', 'u2']);
  });
});
