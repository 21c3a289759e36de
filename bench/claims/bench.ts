import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAgent, createAgentKey } from '@/lib/agents';
import { signUp } from '@/lib/auth';
import { agentApi } from '@/lib/bridge';
import { inProcessFetch } from '@/server/agent-api';
import { createConversation, deliveryQueue, sendMessage } from '@/lib/chat';
import { resetConfigForTests } from '@/lib/config';
import { migrate, openPostgres, useDatabase as installDatabase, type Database } from '@/lib/db';
import { openBenchDatabase } from '../database';
import type { Bench } from '../run';
import { ms, percentile } from '../stats';
import { JOBS, LATENCY_JOBS, plainJobs, ROUNDS } from './plain-jobs';

/**
 * The deliveries queue under load and the realtime path end to end.
 *
 * 1. Claims per second: DELIVERIES deliveries of one agent across CONVERSATIONS conversations, taken
 *    by 1, 4 and 8 connections of that agent (each its own Postgres connection) that claim, complete,
 *    and claim again until the queue is empty. Batches of 10 (what a busy worker would take) and of 1
 *    (what the bridge takes: one turn at a time).
 * 2. Send-to-receive over SSE: a person's message is sent (the one send path); the agent's bridge
 *    client, connected over loopback HTTP to the real agent routes, gets the `deliveries` event on its
 *    event stream, claims, and holds the message. Timed from the start of the send to the event, and
 *    to the claimed delivery in hand; one message at a time.
 */
const DELIVERIES = 5_000;
const CONVERSATIONS = 200;
const CONNECTIONS = [1, 4, 8];
const LATENCY_WARMUP = 20;
const LATENCY_RUNS = 300;


/** A fresh agent with `total` pending deliveries spread over `conversations` channels, as they would arrive. */
async function queue(db: Database, total: number, conversations: number): Promise<string> {
  const [user] = await db.query<{ id: string }>(`insert into auth.users (email) values ('bench-' || gen_random_uuid() || '@example.test') returning id`);
  const [ws] = await db.query<{ id: string }>(`select id from public.workspaces where owner_id = $1`, [user!.id]);
  const [agent] = await db.query<{ id: string }>(`insert into private.agents (owner_user_id, name) values ($1, 'Worker') returning id`, [user!.id]);
  await db.query(`insert into public.workspace_agents (workspace_id, agent_id) values ($1, $2)`, [ws!.id, agent!.id]);
  await db.query(
    `insert into public.conversations (workspace_id, kind, name, visibility) select $1, 'channel', 'load-' || g, 'public' from generate_series(1, $2::int) g`,
    [ws!.id, conversations],
  );
  await db.query(
    `insert into public.messages (workspace_id, conversation_id, author_kind, author_user_id, author_name, body)
     select $1, c.id, 'person', $2, 'Owner', 'message ' || g
       from generate_series(0, $3::int - 1) g
       join (select id, row_number() over (order by id) - 1 as n from public.conversations where workspace_id = $1) c on c.n = g % $4
      order by g`,
    [ws!.id, user!.id, total, conversations],
  );
  await db.query(
    `insert into private.deliveries (workspace_id, agent_id, conversation_id, message_id)
     select m.workspace_id, $2, m.conversation_id, m.id from public.messages m where m.workspace_id = $1 order by m.seq`,
    [ws!.id, agent!.id],
  );
  return agent!.id;
}

/** One connection: claim a batch, complete each, until nothing is left. Returns how many it handled. */
async function drain(db: Pick<Database, 'query' | 'transaction'>, agentId: string, connectionId: string, limit: number): Promise<number> {
  const q = deliveryQueue(db);
  let handled = 0;
  for (;;) {
    const batch = await q.claim(agentId, connectionId, { limit, leaseSeconds: 60 });
    if (batch.length === 0) {
      const [left] = await db.query<{ n: number }>(`select count(*)::int as n from private.deliveries where agent_id = $1 and status in ('pending', 'claimed')`, [agentId]);
      if (left!.n === 0) return handled;
      // Every claimable row is held by another connection (one message at a time per conversation).
      await new Promise((resolve) => setTimeout(resolve, 2));
      continue;
    }
    for (const delivery of batch) await q.complete(agentId, connectionId, delivery.id, { outcome: 'replied' });
    handled += batch.length;
  }
}

async function claimsPerSecond(db: Database, url: string | undefined) {
  const rows: Array<Record<string, string | number>> = [];
  const counts = url ? CONNECTIONS : [1];
  for (const limit of [10, 1]) {
    for (const n of counts) {
      const agentId = await queue(db, DELIVERIES, CONVERSATIONS);
      // Each connection its own Postgres session, as separate bridges would be; PGlite has only one.
      const pools = url ? await Promise.all(Array.from({ length: n }, () => openPostgres(url, { max: 1 }))) : [db];
      const started = performance.now();
      const handled = await Promise.all(pools.map((pool, i) => drain(pool, agentId, `conn-${i}`, limit)));
      const seconds = (performance.now() - started) / 1000;
      if (url) await Promise.all(pools.map((pool) => pool.close()));
      const total = handled.reduce((a, b) => a + b, 0);
      if (total !== DELIVERIES) throw new Error(`handled ${total} of ${DELIVERIES}`);
      rows.push({ measure: `claim + complete, batches of ${limit}`, connections: n, 'deliveries/s': Math.round(total / seconds), 'p50 ms': '', 'p99 ms': '', 'max ms': '' });
    }
  }
  return rows;
}

/** The agent routes behind a loopback HTTP server, streaming responses (SSE) chunk by chunk. */
async function serveAgentApi() {
  // Requests still open when the server closes (the event stream) are ended here, so the route's
  // cleanup runs before the database goes.
  const open = new Set<AbortController>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const abort = new AbortController();
    open.add(abort);
    res.on('close', () => {
      open.delete(abort);
      abort.abort();
    });
    const response = await inProcessFetch(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
      signal: abort.signal,
    });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return res.end();
    const reader = response.body.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) res.write(part.value);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      for (const abort of open) abort.abort();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The stream's server side lets go of the process's LISTEN connection a moment after the client
 * leaves; the database must not close before that.
 */
async function listenerGone() {
  const hub = (globalThis as unknown as { __mvRealtime?: { subscribers: Set<unknown>; stop?: unknown } }).__mvRealtime;
  for (let i = 0; i < 100 && hub && (hub.subscribers.size > 0 || hub.stop); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 200));
}

async function sendToReceive() {
  const { user } = await signUp({ email: `bench-${Date.now()}@example.test`, password: 'correct horse battery', displayName: 'Bench' });
  const agent = await createAgent(user, { name: 'Echo', runtime: 'local', backend: 'offline' });
  const { key } = await createAgentKey(user, agent.id);
  const { conversation } = await createConversation(user, { kind: 'dm', workspaceId: agent.workspaceIds[0]!, agentIds: [agent.id] });
  const server = await serveAgentApi();
  const api = agentApi(server.url);
  const { token } = await api.exchange(key);
  const stop = new AbortController();
  const events = await api.events(token, stop.signal);

  // The agent side: on every event, claim; hand each claimed message to whoever waits for it.
  const waiting = new Map<string, (at: { event: number; claimed: number }) => void>();
  let eventAt = 0;
  const agentSide = (async () => {
    for await (const event of events) {
      if (event.event !== 'deliveries') continue;
      eventAt = performance.now();
      for (const d of await api.claim(token, { connectionId: 'bench', limit: 10, leaseSeconds: 60 })) {
        const claimed = performance.now();
        await api.complete(token, d.id, { connectionId: 'bench', outcome: 'passed' });
        waiting.get(d.message.id)?.({ event: eventAt, claimed });
      }
    }
  })();

  const toEvent: number[] = [];
  const toClaimed: number[] = [];
  for (let i = 0; i < LATENCY_WARMUP + LATENCY_RUNS; i++) {
    const started = performance.now();
    let received!: (at: { event: number; claimed: number }) => void;
    const arrived = new Promise<{ event: number; claimed: number }>((resolve) => (received = resolve));
    const sent = await sendMessage({ kind: 'person', user }, conversation.id, `ping ${i}`);
    waiting.set(sent.id, received);
    const at = await arrived;
    waiting.delete(sent.id);
    if (i >= LATENCY_WARMUP) {
      toEvent.push(at.event - started);
      toClaimed.push(at.claimed - started);
    }
  }
  stop.abort();
  await agentSide.catch(() => {});
  await server.close();
  await listenerGone();
  const row = (measure: string, xs: number[]) => ({
    measure,
    connections: 1,
    'deliveries/s': '',
    'p50 ms': ms(percentile(xs, 50)),
    'p99 ms': ms(percentile(xs, 99)),
    'max ms': ms(Math.max(...xs)),
  });
  return [row('send → deliveries event on the SSE stream', toEvent), row('send → delivery claimed (message in hand)', toClaimed)];
}

const bench: Bench = async () => {
  Object.assign(process.env, { LOG_LEVEL: 'warn' });
  resetConfigForTests();
  const { db, url, drop } = await openBenchDatabase();
  try {
    await migrate(db);
    installDatabase(db);
    const claims = await claimsPerSecond(db, url);
    const latency = await sendToReceive();
    const plain = url ? await plainJobs(url, db) : null;
    return {
      title: `claims on ${db.kind}: ${DELIVERIES} deliveries of one agent over ${CONVERSATIONS} conversations; then ${LATENCY_RUNS} sends timed over SSE (after ${LATENCY_WARMUP} warm-up)`,
      rows: [...claims, ...latency],
      notes: [
        url ? '' : 'PGlite is one connection: only 1 connection is measured. Set BENCH_DATABASE_URL for 4 and 8.',
        'Each connection claims with the one statement (FOR UPDATE SKIP LOCKED under a lease) and completes every delivery in its own transaction.',
        'The SSE path: sendMessage commits → NOTIFY → the process LISTENer → the agent stream (loopback HTTP) → claim over HTTP.',
      ].filter(Boolean),
      tables: [
        plain
          ? {
              title: `plain jobs on Postgres, lib/queue against graphile-worker side by side: ${JOBS} jobs a run for jobs/s (medians of ${ROUNDS} rounds, alternating which goes first), ${LATENCY_JOBS} jobs one at a time a round for queue-to-start latency`,
              rows: plain,
              notes: [
                'lib/queue: each worker one connection, a batch claimed in one statement and finished in the statement that claims the next; one LISTEN per process. graphile-worker: one runner per worker (concurrency 1, a pool of 2: its queries and its LISTEN); batch > 1 = its local queue with batched completions.',
                "'rounds': each round's jobs/s, lib/queue | graphile-worker.",
              ],
            }
          : {
              title: 'plain jobs against graphile-worker: needs Postgres (set BENCH_DATABASE_URL)',
              rows: [],
            },
      ],
    };
  } finally {
    installDatabase(undefined);
    await db.close();
    await drop();
  }
};

export default bench;
