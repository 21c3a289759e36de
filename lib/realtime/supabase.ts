import 'server-only';
import { createClient, type WebSocketLikeConstructor } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { elevated } from '@/lib/db';
import { log } from '@/lib/log';
import { CHANNEL, readEvent, type RealtimeTransport } from './transport';

/** The broadcast event name every Multiverbe event travels under on the channel. */
export const BROADCAST_EVENT = 'event';

export interface SupabaseRealtimeOptions {
  /** The project URL (https://<project>.supabase.co). */
  url: string;
  /** The service-role key: only it may join the private channel. Server side only. */
  serviceRoleKey: string;
}

/**
 * Supabase Realtime, for several app instances behind Supabase's transaction pooler, where LISTEN
 * does not work.
 *
 * - publish: `realtime.send(payload, event, topic, private)` in the writing transaction. It inserts
 *   into `realtime.messages`, which Realtime reads from the WAL: only committed rows are broadcast, so
 *   the event goes out on commit and never on rollback, as with NOTIFY. (`realtime.send` turns its
 *   own failures into a warning, so a publish never aborts the transaction it is in.)
 * - listen: one supabase-js channel per process on the private topic. No policy on
 *   `realtime.messages` admits `anon` or `authenticated` to it, so browsers holding the anon key
 *   can neither read nor forge these events; the service role (which bypasses RLS) joins.
 *
 * Realtime rejoins by itself after a network blip; events broadcast during the gap are lost. Agents
 * do not depend on them (the minute's sweep announces unclaimed work again, lib/chat) and browsers
 * refetch when their own event stream reconnects.
 */
export function supabaseRealtimeTransport({ url, serviceRoleKey }: SupabaseRealtimeOptions): RealtimeTransport {
  return {
    async publish(tx, event) {
      // With the connection's own role: inside a person's transaction the role is `authenticated`,
      // which may not write realtime.messages (Supabase's examples call it from security-definer
      // functions for the same reason); realtime.send would swallow that and the event would be lost.
      await elevated(tx, (tx) => tx.query('select realtime.send($1::text::jsonb, $2, $3, true)', [JSON.stringify(event), BROADCAST_EVENT, CHANNEL]));
    },
    async listen(onEvent) {
      const client = createClient(url, serviceRoleKey, {
        // A fixed token: no Supabase Auth session in this process, and none to refresh.
        accessToken: async () => serviceRoleKey,
        // Node 20 has no WebSocket of its own. (ws's typings are stricter than realtime-js's.)
        realtime: { transport: WebSocket as unknown as WebSocketLikeConstructor },
      });
      // Before joining, so the join itself carries the token (the callback above is read later, async).
      await client.realtime.setAuth(serviceRoleKey);
      const channel = client.channel(CHANNEL, { config: { private: true } });
      channel.on('broadcast', { event: BROADCAST_EVENT }, (message: { payload?: unknown }) => {
        const event = readEvent(message.payload);
        if (event) onEvent(event);
      });
      try {
        await new Promise<void>((resolve, reject) => {
          let joined = false;
          channel.subscribe((status, error) => {
            if (status === 'SUBSCRIBED') {
              if (joined) log('info', 'realtime: rejoined the Supabase channel');
              joined = true;
              resolve();
            } else if (!joined) {
              reject(new Error(`Supabase Realtime refused the "${CHANNEL}" channel (${status}${error ? `: ${error.message}` : ''}). Check SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY.`));
            } else {
              log('warn', 'realtime: the Supabase channel was interrupted; rejoining', { status, error: error?.message });
            }
          });
        });
      } catch (error) {
        await client.removeAllChannels();
        await client.realtime.disconnect();
        throw error;
      }
      return async () => {
        await client.removeChannel(channel);
        await client.realtime.disconnect();
      };
    },
  };
}
