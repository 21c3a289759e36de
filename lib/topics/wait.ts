import { getDb } from '@/lib/db';
import { log } from '@/lib/log';

/** The channel the migration's trigger notifies with a request id when the request finishes. */
const CHANNEL = 'mv_topic_requests';
/**
 * A waiter re-checks this often even without a notification: NOTIFY does not cross Supabase's
 * transaction pooler, and a notification sent between a waiter's check and its subscription is lost.
 */
const RECHECK_MS = 5_000;

type Waiter = () => void;

// One LISTEN per process, shared by every long poll; it starts with the first waiter and stops with the last.
const hub = ((globalThis as unknown as { __mvTopicWaits?: Hub }).__mvTopicWaits ??= { waiters: new Map(), stop: undefined });

interface Hub {
  waiters: Map<string, Set<Waiter>>;
  stop: Promise<() => Promise<void>> | undefined;
}

function notify(requestId: string) {
  for (const waiter of hub.waiters.get(requestId) ?? []) waiter();
}

/**
 * Resolves when `isDone` says so, checked after each notification for `requestId` and every few seconds,
 * or after `timeoutMs`, or when `signal` aborts (the client went away). Never a busy loop.
 */
export async function waitForRequest(requestId: string, timeoutMs: number, isDone: () => Promise<boolean>, signal?: AbortSignal): Promise<void> {
  let wake!: () => void;
  let woken = new Promise<void>((resolve) => (wake = resolve));
  const waiter: Waiter = () => wake();
  const set = hub.waiters.get(requestId) ?? new Set<Waiter>();
  hub.waiters.set(requestId, set);
  set.add(waiter);
  const deadline = Date.now() + timeoutMs;
  const onAbort = () => wake();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    hub.stop ??= getDb().then((db) => db.listen(CHANNEL, notify));
    await hub.stop.catch((error) => {
      hub.stop = undefined;
      log('warn', 'topic wait: LISTEN failed, polling instead', { error });
    });
    // Subscribed now: anything that finished before is seen by this first check.
    while (!signal?.aborted && !(await isDone())) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([woken, new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(left, RECHECK_MS))))]);
      clearTimeout(timer);
      woken = new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    set.delete(waiter);
    if (set.size === 0) hub.waiters.delete(requestId);
    if (hub.waiters.size === 0 && hub.stop) {
      const stopping = hub.stop;
      hub.stop = undefined;
      await (await stopping.catch(() => async () => {}))().catch(() => {});
    }
  }
}
