import { z } from 'zod';
import { getDb, type Tx } from '@/lib/db';
import { log } from '@/lib/log';

const id = z.string().uuid();
const eventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message'), workspaceId: id, conversationId: id, messageId: id }),
  z.object({ type: z.literal('conversation'), workspaceId: id, conversationId: id }),
  z.object({ type: z.literal('deliveries'), agentId: id }),
  z.object({ type: z.literal('members'), workspaceId: id }),
  z.object({ type: z.literal('credentials'), agentId: id }),
]);

/**
 * What changed, as ids only: subscribers re-read through RLS, so an event never carries content and
 * the same payload is safe for every listener it reaches. `members`: someone left or was removed,
 * a role changed, or the workspace was deleted — every open stream of the workspace checks that its
 * person still belongs. `credentials`: a key or host token of the agent was revoked — the agent's
 * streams check that theirs still stands.
 */
export type RealtimeEvent = z.infer<typeof eventSchema>;

/**
 * How events leave the writing transaction and reach every app process. `publish` runs inside the
 * transaction and the event goes out only if it commits; `listen` holds one subscription per
 * process and hands every event to `onEvent` until the returned function is called.
 */
export interface RealtimeTransport {
  publish(tx: Tx, event: RealtimeEvent): Promise<void>;
  listen(onEvent: (event: RealtimeEvent) => void): Promise<() => Promise<void>>;
}

/** The one channel (NOTIFY channel, Realtime topic) every process shares. */
export const CHANNEL = 'mv_events';

/**
 * An event as a transport received it, or null (logged) when it is not one of ours. Unknown keys
 * are dropped: Supabase's `realtime.send` adds an `id` to every payload.
 */
export function readEvent(raw: unknown): RealtimeEvent | null {
  const parsed = eventSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  log('warn', 'realtime: unreadable event', { raw });
  return null;
}

/**
 * Postgres LISTEN/NOTIFY. NOTIFY is transactional (sent on commit, dropped on rollback) and LISTEN
 * holds one connection per process: right for one node, or several on a direct connection.
 */
export const pgNotifyTransport: RealtimeTransport = {
  async publish(tx, event) {
    await tx.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify(event)]);
  },
  async listen(onEvent) {
    const db = await getDb();
    return db.listen(CHANNEL, (payload) => {
      let raw: unknown;
      try {
        raw = JSON.parse(payload);
      } catch {
        raw = payload;
      }
      const event = readEvent(raw);
      if (event) onEvent(event);
    });
  },
};
