import { config } from '@/lib/config';
import { getDb } from '@/lib/db';
import { log } from '@/lib/log';
import { countRuns, startLocalExecutor, type LocalExecutor, type RunCounts } from './executor';
import { functions } from './functions';

export { sendEvent, type AppEvent, type Events } from '@/lib/events';
export { NonRetriableError } from './executor';

// One executor per process, kept on globalThis so Next's module reloading and the instrumentation hook share it.
const holder = globalThis as unknown as { __multiverbeExecutor?: Promise<LocalExecutor | null> };

type Mode = 'inngest-cloud' | 'local' | 'off';

function mode(): Mode {
  const cfg = config();
  if (cfg.inngestCloud) return 'inngest-cloud';
  return cfg.LOCAL_EXECUTOR === '1' ? 'local' : 'off';
}

/** Whether this process runs background work itself (the local executor), rather than Inngest Cloud or another process. */
export function runsBackgroundWork(): boolean {
  return mode() === 'local';
}

/**
 * Starts the local executor with every registered function, unless Inngest Cloud runs them or
 * LOCAL_EXECUTOR=0 leaves it to another process. Safe to call more than once.
 */
export function startBackgroundWork(): Promise<LocalExecutor | null> {
  holder.__multiverbeExecutor ??= (async () => {
    if (mode() !== 'local') return null;
    const executor = await startLocalExecutor({ functions });
    log('info', 'local executor started', { workerId: executor.workerId, functions: functions.map((fn) => fn.id) });
    return executor;
  })().catch((error: unknown) => {
    holder.__multiverbeExecutor = undefined;
    throw error;
  });
  return holder.__multiverbeExecutor;
}

export interface BackgroundWorkStatus {
  mode: Mode;
  /** The local executor is taking work in this process. */
  running: boolean;
  lastTickAt: Date | null;
  /** The local executor's runs (null with Inngest Cloud, which keeps its own). */
  runs: RunCounts | null;
}

/** For /api/health. */
export async function backgroundWorkStatus(): Promise<BackgroundWorkStatus> {
  const current = mode();
  if (current === 'inngest-cloud') return { mode: current, running: false, lastTickAt: null, runs: null };
  const executor = await holder.__multiverbeExecutor?.catch(() => null);
  if (executor) {
    const { running, lastTickAt, runs } = await executor.status();
    return { mode: current, running, lastTickAt, runs };
  }
  return { mode: current, running: false, lastTickAt: null, runs: await countRuns(await getDb()) };
}
