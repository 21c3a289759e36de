import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import { config } from '@/lib/config';
import type { Database } from '@/lib/db';
import { log } from '@/lib/log';

/**
 * Workers: the processes that hold leases. Each registers in `private.queue_workers` and beats a
 * heartbeat; a lease holds only while its worker is alive (`leaseFree` in lease.ts). So a process
 * killed mid-work frees what it held as soon as it is known dead — when the next process of the same
 * install starts (it declares its predecessors dead) or when the heartbeat has been silent for
 * `aliveMs`, whichever comes first — instead of when each lease runs out.
 */

export interface WorkerOptions {
  /** Where this process runs; one process per install at a time (`installOf()` for the app's). */
  install: string;
  /** How often the heartbeat is written. */
  heartbeatMs?: number;
  /** How long after its last heartbeat a silent worker still counts as alive. */
  aliveMs?: number;
}

export interface QueueWorker {
  readonly id: string;
  /** Stops the heartbeat and declares this worker dead: every lease it still holds is free at once. */
  stop(): Promise<void>;
}

/**
 * Beat every 2 s, dead after 10 s of silence: five missed beats (a pause of the event loop or a slow
 * query delays one beat, not five), and a process killed on another machine is known dead within 10 s.
 */
export const HEARTBEAT_MS = 2_000;
export const ALIVE_MS = 10_000;

/** The app's install: the embedded database's directory (one process can open it), or this machine, app directory and port. */
export function installOf(): string {
  const cfg = config();
  return cfg.embedded ? `pglite:${path.resolve(cfg.PGLITE_DIR)}` : `${hostname()}:${process.cwd()}:${process.env.PORT ?? 3000}`;
}

/** Registers a worker, declares the earlier workers of its install dead, and starts its heartbeat. */
export async function startWorker(db: Pick<Database, 'query' | 'transaction'>, options: WorkerOptions): Promise<QueueWorker> {
  const id = randomUUID();
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const aliveSeconds = (options.aliveMs ?? ALIVE_MS) / 1000;
  const replaced = await db.transaction(async (tx) => {
    const dead = await tx.query<{ id: string; pid: number }>(
      `update private.queue_workers set alive_until = now() where install = $1 and alive_until > now() returning id, pid`,
      [options.install],
    );
    // Dead for a day: nothing refers to them any more.
    await tx.query(`delete from private.queue_workers where alive_until < now() - interval '1 day'`);
    await tx.query(
      `insert into private.queue_workers (id, install, host, pid, alive_until) values ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
      [id, options.install, hostname(), process.pid, aliveSeconds],
    );
    return dead;
  });
  if (replaced.length > 0) log('info', 'queue worker replaced the previous process of this install', { workerId: id, replaced });

  const beat = async () => {
    try {
      const [row] = await db.query<{ was_alive: boolean }>(
        `with was as (select alive_until > now() as alive from private.queue_workers where id = $1)
         update private.queue_workers set heartbeat_at = now(), alive_until = now() + make_interval(secs => $2)
          where id = $1
         returning (select alive from was) as was_alive`,
        [id, aliveSeconds],
      );
      // Declared dead while running (silent too long, or another process of this install started): its
      // leases may have gone to others, whose claims now own those rows. It goes on, alive again.
      if (!row?.was_alive) log('error', 'queue worker was taken for dead; its leases may have been claimed by others', { workerId: id });
    } catch (error) {
      log('warn', 'queue worker heartbeat failed', { workerId: id, error });
    }
  };
  const timer = setInterval(() => void beat(), heartbeatMs);
  timer.unref();

  let stopped: Promise<void> | undefined;
  return {
    id,
    stop() {
      stopped ??= (async () => {
        clearInterval(timer);
        await db.query(`update private.queue_workers set alive_until = now() where id = $1`, [id]);
      })();
      return stopped;
    },
  };
}

// The process's own worker, kept on globalThis like its database: queues claimed inside background
// steps and request handlers record it as the holder of their leases.
const holder = globalThis as unknown as { __mvQueueWorker?: QueueWorker };

/** Installs (or, with undefined, removes) this process's worker. */
export function installProcessWorker(worker: QueueWorker | undefined) {
  holder.__mvQueueWorker = worker;
}

/** This process's worker id, or null when none is registered (tests, scripts): leases then only run out. */
export function processWorkerId(): string | null {
  return holder.__mvQueueWorker?.id ?? null;
}
