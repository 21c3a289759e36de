import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { POST as submitRoute } from '@/app/api/requests/route';
import { POST as createTopicRoute } from '@/app/api/topics/route';
import { resetConfigForTests } from '@/lib/config';
import { migrate, useDatabase as installDatabase } from '@/lib/db';
import { createApiKey } from '@/lib/topics';
import { createWorkspace } from '@/lib/workspaces';
import { signUp } from '@/lib/auth';
import { openBenchDatabase } from '../database';
import type { Bench } from '../run';
import { ms, percentile } from '../stats';

/**
 * POST /api/requests under load against a bare handler that answers 202 without the database, side by
 * side in one run: both served by the same loopback HTTP server, driven by the same closed-loop clients.
 * The queue is not processed meanwhile (no executor): this measures accepting work, not doing it.
 */
const CLIENTS = 16;
const WARMUP = 200;
const ROUNDS = 4;
const PER_ROUND = 500;

type Handler = (req: Request) => Promise<Response>;

/** The bare handler: reads the body and answers the contract's 202, touching nothing. */
const bare: Handler = async (req) => {
  await req.json();
  return Response.json({ success: true, data: { id: randomUUID(), session_id: randomUUID(), status: 'pending', created_at: new Date().toISOString() }, error: null }, { status: 202 });
};

/** One loopback server for both: /real → the app's route, /bare → the bare handler. */
async function serve(handlers: Record<string, Handler>) {
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const response = await handlers[req.url!]!(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** `total` submits by CLIENTS clients, each sending its next one when the last is answered. */
async function load(url: string, key: string, body: string, total: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < total) {
        next += 1;
        const t0 = performance.now();
        const response = await fetch(url, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });
        await response.arrayBuffer();
        if (response.status !== 202) throw new Error(`${url} answered ${response.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}


const bench: Bench = async () => {
  // Limits far above the load: this measures the submit path, the 429s would measure nothing.
  Object.assign(process.env, { LOG_LEVEL: 'warn', MODEL_BACKEND: 'offline', LOCAL_EXECUTOR: '0', RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_HOUR: '1000000' });
  resetConfigForTests();
  const { db, drop } = await openBenchDatabase();
  await migrate(db);
  installDatabase(db);
  const { user } = await signUp({ email: 'bench@example.test', password: 'correct horse battery', displayName: 'bench' });
  const workspace = await createWorkspace(user, { name: 'Bench' });
  const { secret: key } = await createApiKey(user, workspace.id, { name: 'bench' });
  const topicResponse = await createTopicRoute(
    new Request('http://127.0.0.1/api/topics', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench', system_prompt: 'Answer briefly.' }) }),
  );
  const topicId = ((await topicResponse.json()) as { data: { id: string } }).data.id;
  const body = JSON.stringify({ prompt: 'Come implemento un middleware JWT in FastAPI?', topic_id: topicId, session_id: null, model: null, summarize: false });

  const server = await serve({ '/real': (req) => submitRoute(req), '/bare': bare });
  const results = { real: { latencies: [] as number[], seconds: 0 }, bare: { latencies: [] as number[], seconds: 0 } };
  await load(`${server.url}/real`, key, body, WARMUP);
  await load(`${server.url}/bare`, key, body, WARMUP);
  // Alternating rounds, so both see the same machine state (and the real one a growing queue table).
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? (['bare', 'real'] as const) : (['real', 'bare'] as const)) {
      const { latencies, seconds } = await load(`${server.url}/${name}`, key, body, PER_ROUND);
      results[name].latencies.push(...latencies);
      results[name].seconds += seconds;
    }
  }
  const [queued] = await db.query<{ n: number }>(`select count(*) as n from public.topic_requests`);
  await server.close();
  await db.close();
  await drop();

  const row = (label: string, r: { latencies: number[]; seconds: number }) => ({
    handler: label,
    requests: r.latencies.length,
    'req/s': Math.round(r.latencies.length / r.seconds),
    'p50 ms': ms(percentile(r.latencies, 50)),
    'p99 ms': ms(percentile(r.latencies, 99)),
  });
  return {
    title: `topic-queue on ${db.kind}: POST /api/requests, ${CLIENTS} concurrent clients on loopback, ${ROUNDS} x ${PER_ROUND} requests each (after ${WARMUP} warm-up)`,
    rows: [row('bare 202 (no database)', results.bare), row('POST /api/requests', results.real)],
    notes: [
      `${queued!.n} requests queued (warm-up included); each submit: key lookup, two rate-limit windows, and one transaction (new session, request, wake event)`,
    ],
  };
};

export default bench;
