// Test support only (imported by *.test.ts): a stand-in for the parts of Supabase Realtime the app
// uses, so the real supabase-js client can be driven without a Supabase project. It speaks the
// Phoenix channel protocol as realtime-js sends it (JSON arrays `[joinRef, ref, topic, event,
// payload]`): replies to heartbeats and joins, refuses a private join without the expected access
// token, and broadcasts to the clients joined on a topic. It knows nothing else of Realtime.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

type Frame = [string | null, string | null, string, string, Record<string, unknown>];

export interface Join {
  topic: string;
  private: boolean;
  accessToken: string | undefined;
  apikey: string | null;
}

export async function startRealtimeStandIn({ serviceRoleKey }: { serviceRoleKey: string }) {
  const http = createServer();
  const wss = new WebSocketServer({ server: http, path: '/realtime/v1/websocket' });
  const joined = new Map<WebSocket, Map<string, Join & { joinRef: string | null }>>();
  const joins: Join[] = [];
  const left: string[] = [];

  wss.on('connection', (socket, request) => {
    const apikey = new URL(request.url ?? '/', 'http://localhost').searchParams.get('apikey');
    const topics = new Map<string, Join & { joinRef: string | null }>();
    joined.set(socket, topics);
    const reply = ([joinRef, ref, topic]: Frame, status: 'ok' | 'error', response: Record<string, unknown> = {}) =>
      socket.send(JSON.stringify([joinRef, ref, topic, 'phx_reply', { status, response }]));
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      const [joinRef, , topic, event, payload] = frame;
      if (topic === 'phoenix' && event === 'heartbeat') return reply(frame, 'ok');
      if (event === 'phx_join') {
        const config = (payload.config ?? {}) as { private?: boolean };
        const join: Join = { topic, private: Boolean(config.private), accessToken: payload.access_token as string | undefined, apikey };
        joins.push(join);
        if (join.private && join.accessToken !== serviceRoleKey) return reply(frame, 'error', { reason: 'Unauthorized: You do not have permissions to read from this Channel topic' });
        topics.set(topic, { ...join, joinRef });
        return reply(frame, 'ok', {});
      }
      if (event === 'phx_leave') {
        topics.delete(topic);
        left.push(topic);
        return reply(frame, 'ok');
      }
      // access_token refreshes and anything else: nothing to answer.
    });
    socket.on('close', () => joined.delete(socket));
  });

  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    joins,
    left,
    /** Clients currently joined on a topic (`realtime:<name>`). */
    joinedOn: (topic: string) => [...joined.values()].filter((topics) => topics.has(topic)).length,
    /** What Realtime does with a committed `realtime.messages` row: a broadcast to that topic's clients. */
    broadcast(topic: string, event: string, payload: unknown, isPrivate: boolean) {
      for (const [socket, topics] of joined) {
        const join = topics.get(`realtime:${topic}`);
        if (join && join.private === isPrivate) {
          socket.send(JSON.stringify([null, null, `realtime:${topic}`, 'broadcast', { type: 'broadcast', event, payload }]));
        }
      }
    },
    async close() {
      for (const socket of joined.keys()) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * The database side: a `realtime.send` with the real one's signature and behaviour where it
 * matters here — it inserts into `realtime.messages` (RLS on, no policy for API roles) as the caller,
 * adds an `id` to the payload, and turns a failure into a warning. A trigger-free NOTIFY on commit
 * stands in for Realtime reading the WAL: only committed rows reach `onRow`.
 */
export const REALTIME_SCHEMA_STAND_IN = `
  create schema if not exists realtime;
  create table if not exists realtime.messages (
    id uuid primary key default gen_random_uuid(),
    topic text not null, extension text not null, event text, payload jsonb, private boolean default false,
    inserted_at timestamptz not null default now()
  );
  alter table realtime.messages enable row level security;
  grant usage on schema realtime to authenticated, anon;
  create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true) returns void
  language plpgsql as $$
  declare
    generated_id uuid := gen_random_uuid();
    final_payload jsonb := case when payload ? 'id' then payload else jsonb_set(payload, '{id}', to_jsonb(generated_id)) end;
  begin
    begin
      insert into realtime.messages (id, payload, event, topic, private, extension)
      values (generated_id, final_payload, event, topic, private, 'broadcast');
      perform pg_notify('realtime_stand_in', json_build_object('topic', topic, 'event', event, 'payload', final_payload, 'private', private)::text);
    exception when others then
      raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
    end;
  end $$;
`;
