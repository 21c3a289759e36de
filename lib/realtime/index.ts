import { config } from '@/lib/config';
import type { Tx } from '@/lib/db';
import { log } from '@/lib/log';
import { pgNotifyTransport, type RealtimeEvent, type RealtimeTransport } from './transport';

export { sseResponse, type SseSend } from './sse';

export { CHANNEL, type RealtimeEvent, type RealtimeTransport } from './transport';

/**
 * The transport REALTIME_TRANSPORT names: Postgres LISTEN/NOTIFY (the default) or Supabase
 * Realtime. Chosen once per process; supabase-js is loaded only when it is the one.
 */
let chosen: Promise<RealtimeTransport> | undefined;
function transport(): Promise<RealtimeTransport> {
  chosen ??= (async () => {
    const supabase = config().supabaseRealtime;
    if (!supabase) return pgNotifyTransport;
    const { supabaseRealtimeTransport } = await import('./supabase');
    return supabaseRealtimeTransport(supabase);
  })();
  return chosen;
}

/** Announces `event` when `tx` commits (never before, never if it rolls back). */
export async function publish(tx: Tx, event: RealtimeEvent): Promise<void> {
  return (await transport()).publish(tx, event);
}

type Subscriber = (event: RealtimeEvent) => void;

// One listener per process, shared by every subscriber (SSE stream) of the process. It starts with
// the first subscriber and stops with the last, so nothing holds a connection while no one listens.
const hub = ((globalThis as unknown as { __mvRealtime?: Hub }).__mvRealtime ??= {
  subscribers: new Set<Subscriber>(),
  stop: undefined,
});

interface Hub {
  subscribers: Set<Subscriber>;
  stop: Promise<() => Promise<void>> | undefined;
}

function dispatch(event: RealtimeEvent) {
  for (const subscriber of hub.subscribers) {
    try {
      subscriber(event);
    } catch (error) {
      log('error', 'realtime: subscriber failed', { error });
    }
  }
}

/** Calls `onEvent` for every event of every process until the returned function is called. */
export async function subscribe(onEvent: Subscriber): Promise<() => Promise<void>> {
  hub.subscribers.add(onEvent);
  try {
    hub.stop ??= transport().then((t) => t.listen(dispatch));
    await hub.stop;
  } catch (error) {
    hub.subscribers.delete(onEvent);
    hub.stop = undefined;
    throw error;
  }
  return async () => {
    if (!hub.subscribers.delete(onEvent) || hub.subscribers.size > 0 || !hub.stop) return;
    const stopping = hub.stop;
    hub.stop = undefined;
    await (await stopping)();
  };
}
