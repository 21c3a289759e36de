import { getDb, type Tx } from '@/lib/db';
import { log } from '@/lib/log';

export { sseResponse, type SseSend } from './sse';

/**
 * What changed, as ids only: subscribers re-read through RLS, so an event never carries content and
 * the same payload is safe for every listener it reaches.
 */
export type RealtimeEvent =
  | { type: 'message'; workspaceId: string; conversationId: string; messageId: string }
  | { type: 'conversation'; workspaceId: string; conversationId: string }
  | { type: 'deliveries'; agentId: string };

/**
 * How events leave the writing transaction and reach every app process. Postgres LISTEN/NOTIFY is
 * the one implemented: NOTIFY is transactional (sent on commit, dropped on rollback) and LISTEN
 * holds one connection per process, which suits one node.
 *
 * For several instances behind Supabase's transaction pooler (where LISTEN does not work), a
 * Supabase Realtime adapter implements the same two calls: `publish` runs
 * `select realtime.send($payload, 'event', 'mv_events', true)` in the same transaction (Realtime's
 * broadcast-from-database is transactional too), and `listen` subscribes one supabase-js channel
 * per process to `mv_events` and hands each broadcast to `onEvent`. Nothing above this interface
 * changes; swap `transport` below.
 */
export interface RealtimeTransport {
  publish(tx: Tx, event: RealtimeEvent): Promise<void>;
  listen(onEvent: (event: RealtimeEvent) => void): Promise<() => Promise<void>>;
}

export const CHANNEL = 'mv_events';

export const pgNotifyTransport: RealtimeTransport = {
  async publish(tx, event) {
    await tx.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify(event)]);
  },
  async listen(onEvent) {
    const db = await getDb();
    return db.listen(CHANNEL, (payload) => {
      try {
        onEvent(JSON.parse(payload) as RealtimeEvent);
      } catch (error) {
        log('warn', 'realtime: unreadable event', { payload, error });
      }
    });
  },
};

const transport: RealtimeTransport = pgNotifyTransport;

/** Announces `event` when `tx` commits (never before, never if it rolls back). */
export function publish(tx: Tx, event: RealtimeEvent): Promise<void> {
  return transport.publish(tx, event);
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
    hub.stop ??= transport.listen(dispatch);
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
