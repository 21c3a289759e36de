import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as requestRoute from '@/app/api/requests/[id]/route';
import * as requestsRoute from '@/app/api/requests/route';
import * as topicRoute from '@/app/api/topics/[id]/route';
import * as topicsRoute from '@/app/api/topics/route';
import { processTopicRequest } from '@/inngest/functions/process-topic-request';
import { startLocalExecutor, type LocalExecutor } from '@/inngest/executor';
import { startFakeModelServer, useFakeModelEnv, type FakeModelServer } from '@/lib/agent/testing';
import { resetConfigForTests } from '@/lib/config';
import type { Database } from '@/lib/db';
import { createWorkspace } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { createApiKey } from './auth';
import { claimNext, MAX_ATTEMPTS } from './queue';
import { callRoute } from './testing';

/**
 * The queue under load and failure: FIFO with one request in flight per workspace, workspaces
 * independent, a dead worker's request recovered, a request whose workers keep dying failed after the
 * retry limit, model errors recorded with the provider's message. No timing assertions: order and
 * concurrency are read from what reached the model and from the database.
 */

process.env.LOG_LEVEL = 'silent';
const db = setupTestDatabase();

let fake: FakeModelServer;
let proxy: CountingProxy;
let restoreEnv: () => void;

beforeAll(async () => {
  fake = await startFakeModelServer();
  proxy = await startCountingProxy(fake.url);
  restoreEnv = useFakeModelEnv({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: proxy.url, MODEL_BACKEND: 'anthropic', AGENT_MAX_RETRIES: '0' });
  Object.assign(process.env, { RATE_LIMIT_PER_MINUTE: '1000', RATE_LIMIT_PER_HOUR: '1000' });
  resetConfigForTests();
});
afterAll(async () => {
  restoreEnv();
  await proxy.close();
  await fake.close();
});
afterEach(() => {
  fake.reset();
  proxy.reset();
});

/** A workspace with a key and one topic whose system prompt names it (so model calls say whose they are). */
async function workspaceWithTopic(name: string) {
  const owner = await createUser(name);
  const workspace = await createWorkspace(owner, { name });
  const { secret: key } = await createApiKey(owner, workspace.id, { name });
  const topic = await callRoute(topicsRoute.POST, 'POST', '/api/topics', { key, body: { name: 'queue', system_prompt: `Workspace ${name}.` } });
  return { workspaceId: workspace.id, key, topicId: topic.body.data.id as string, system: `Workspace ${name}.` };
}

const submit = (key: string, topicId: string, prompt: string) =>
  callRoute(requestsRoute.POST, 'POST', '/api/requests', { key, body: { prompt, topic_id: topicId } }).then((r) => {
    expect(r.status).toBe(202);
    return r.body.data.id as string;
  });
const getRequest = (key: string, id: string) => callRoute(requestRoute.GET, 'GET', `/api/requests/${id}`, { key, params: { id } }).then((r) => r.body.data);

/** The last user message of a model call: the request's prompt. */
const promptOf = (body: { messages: Array<{ content: Array<{ text?: string }> }> }) => body.messages.at(-1)!.content[0]!.text;

// Later clocks make the executor's once-a-minute sweep due without waiting for it.
let clockOffset = 0;
async function withExecutor(fn: (executor: LocalExecutor) => Promise<void>) {
  const executor = await startLocalExecutor({ functions: [processTopicRequest], now: () => new Date(Date.now() + clockOffset) });
  try {
    await fn(executor);
  } finally {
    await executor.stop();
  }
}
const drain = () => withExecutor((executor) => executor.runUntilIdle());

/** What a worker that claimed a request and then died leaves behind, once its lease has run out. */
async function workerDiesHolding(workspaceId: string, requestId: string) {
  const claimed = await claimNext(workspaceId, `dead-worker-${Math.random()}`);
  expect(claimed?.id).toBe(requestId);
  await expireLeases(db(), requestId);
}
const expireLeases = (database: Database, requestId: string) =>
  database.query(`update public.topic_requests set lease_expires_at = now() - interval '1 second' where id = $1`, [requestId]);

describe('one workspace', () => {
  it('completes 50 requests submitted at once in submission order, never more than one in flight', async () => {
    const ws = await workspaceWithTopic('fifo');
    fake.respond = (request) => ({ text: `answer to ${promptOf(request.body)}` });
    const ids = await Promise.all(Array.from({ length: 50 }, (_, i) => submit(ws.key, ws.topicId, `job ${i}`)));
    await drain();

    const rows = await db().query<{ id: string; prompt: string; status: string; result: string; started_at: Date; completed_at: Date }>(
      `select id, prompt, status, result, started_at, completed_at from public.topic_requests where workspace_id = $1 order by seq`,
      [ws.workspaceId],
    );
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(rows.every((r) => r.status === 'completed' && r.result === `answer to ${r.prompt}`)).toBe(true);
    // The model saw the prompts in submission (queue) order, one call at a time.
    expect(fake.requests.map((r) => promptOf(r.body))).toEqual(rows.map((r) => r.prompt));
    expect(proxy.maxInFlight.get(ws.system)).toBe(1);
    // And the queue agrees: each request started only after the previous one had finished.
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.started_at.getTime()).toBeGreaterThanOrEqual(rows[i - 1]!.completed_at.getTime());
  });

  it('runs as many at once as the workspace allows, and never two of one session', async () => {
    const ws = await workspaceWithTopic('parallel');
    await db().query(`insert into public.topic_queue_settings (workspace_id, concurrency) values ($1, 2)`, [ws.workspaceId]);
    const first = await submit(ws.key, ws.topicId, 'first');
    const { session_id } = await getRequest(ws.key, first);
    const sameSession = await callRoute(requestsRoute.POST, 'POST', '/api/requests', { key: ws.key, body: { prompt: 'follow-up', topic_id: ws.topicId, session_id } });
    const other = await submit(ws.key, ws.topicId, 'other session');
    const third = await submit(ws.key, ws.topicId, 'third session');

    expect((await claimNext(ws.workspaceId, 'w1'))?.id).toBe(first);
    // The follow-up waits for the first answer (its history): the next claim skips it.
    expect((await claimNext(ws.workspaceId, 'w2'))?.id).toBe(other);
    expect(await claimNext(ws.workspaceId, 'w3')).toBeNull(); // two in flight: the workspace's limit
    expect(sameSession.status).toBe(202);
    expect(third).toBeDefined();
    await db().query(`delete from public.topic_requests where workspace_id = $1`, [ws.workspaceId]);
  });
});

describe('two workspaces', () => {
  it('progress independently: one stuck behind a running request does not hold up the other', async () => {
    const stuck = await workspaceWithTopic('stuck');
    const free = await workspaceWithTopic('free');
    const running = await submit(stuck.key, stuck.topicId, 'long job');
    // A live worker holds it (its lease runs for ten minutes), so the rest of that queue waits.
    expect((await claimNext(stuck.workspaceId, 'busy-worker', 600))?.id).toBe(running);
    const waiting = await Promise.all(['a', 'b'].map((p) => submit(stuck.key, stuck.topicId, p)));
    const flowing = [];
    for (const prompt of ['x', 'y', 'z']) flowing.push(await submit(free.key, free.topicId, prompt));
    await drain();

    for (const id of flowing) expect((await getRequest(free.key, id)).status).toBe('completed');
    for (const id of waiting) expect((await getRequest(stuck.key, id)).status).toBe('pending');
    expect((await getRequest(stuck.key, running)).status).toBe('processing');
    expect(fake.requests.map((r) => promptOf(r.body))).toEqual(['x', 'y', 'z']);
    await db().query(`delete from public.topic_requests where workspace_id = $1`, [stuck.workspaceId]);
  });

  it('each keeps its own order with one in flight while both run', async () => {
    const a = await workspaceWithTopic('left');
    const b = await workspaceWithTopic('right');
    fake.respond = (request) => ({ text: `done ${promptOf(request.body)}` });
    const submitted = [];
    for (let i = 0; i < 8; i++) submitted.push(await submit(i % 2 ? b.key : a.key, i % 2 ? b.topicId : a.topicId, `${i % 2 ? 'right' : 'left'} ${i}`));
    await drain();
    const order = fake.requests.map((r) => promptOf(r.body)!);
    expect(order.filter((p) => p.startsWith('left'))).toEqual(['left 0', 'left 2', 'left 4', 'left 6']);
    expect(order.filter((p) => p.startsWith('right'))).toEqual(['right 1', 'right 3', 'right 5', 'right 7']);
    expect(proxy.maxInFlight.get(a.system)).toBe(1);
    expect(proxy.maxInFlight.get(b.system)).toBe(1);
  });
});

describe('failures', () => {
  it('recovers a request whose worker died: the lease expires, the sweep wakes the queue, it completes', async () => {
    const ws = await workspaceWithTopic('recovery');
    const id = await submit(ws.key, ws.topicId, 'survive the crash');
    const behind = await submit(ws.key, ws.topicId, 'queued behind it');
    await workerDiesHolding(ws.workspaceId, id);
    // The submit's wake was spent on nothing (the dead worker held the queue); only the sweep knows.
    await db().query(`update private.executor_events set dispatched_at = now() where name = 'topics/queue.wake' and dispatched_at is null`);

    await withExecutor(async (executor) => {
      clockOffset += 2 * 60_000;
      await executor.runUntilIdle();
    });

    const recovered = await getRequest(ws.key, id);
    expect(recovered).toMatchObject({ status: 'completed', result: 'ok', error: null });
    expect((await getRequest(ws.key, behind)).status).toBe('completed');
    const [row] = await db().query<{ attempts: number }>(`select attempts from public.topic_requests where id = $1`, [id]);
    expect(row!.attempts).toBe(2);
    expect(fake.requests.map((r) => promptOf(r.body))).toEqual(['survive the crash', 'queued behind it']);
  });

  it(`fails a request whose workers died ${MAX_ATTEMPTS} times, with a clear error, and moves on`, async () => {
    const ws = await workspaceWithTopic('cursed');
    const id = await submit(ws.key, ws.topicId, 'kills every worker');
    const next = await submit(ws.key, ws.topicId, 'fine');
    for (let i = 0; i < MAX_ATTEMPTS; i++) await workerDiesHolding(ws.workspaceId, id);
    await drain();

    const failed = await getRequest(ws.key, id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(new RegExp(`stopped responding ${MAX_ATTEMPTS} times`));
    expect(failed.completed_at).toEqual(expect.any(String));
    expect((await getRequest(ws.key, next)).status).toBe('completed');
    expect(fake.requests.map((r) => promptOf(r.body))).toEqual(['fine']);
  });

  it('marks model errors (overload, subscription limit, auth) failed with the provider’s message', async () => {
    const ws = await workspaceWithTopic('errors');
    fake.respond = (request) => {
      const prompt = promptOf(request.body);
      if (prompt === 'overloaded') return { error: { status: 529, message: 'Overloaded' } };
      if (prompt === 'limited') return { error: { status: 429, message: 'Your subscription usage limit has been reached' } };
      return { error: { status: 401, message: 'invalid x-api-key' } };
    };
    const ids = await Promise.all(['overloaded', 'limited', 'auth'].map((p) => submit(ws.key, ws.topicId, p)));
    await drain();
    const [overloaded, limited, auth] = await Promise.all(ids.map((id) => getRequest(ws.key, id)));
    expect(overloaded).toMatchObject({ status: 'failed', result: null });
    expect(overloaded.error).toMatch(/Overloaded/);
    expect(limited.error).toMatch(/Your subscription usage limit has been reached/);
    expect(auth.error).toMatch(/invalid x-api-key/);
  });
});

describe('offline backend', () => {
  it('still completes requests and summaries, clearly labelled', async () => {
    const ws = await workspaceWithTopic('offline');
    process.env.MODEL_BACKEND = 'offline';
    resetConfigForTests();
    try {
      const id = (
        await callRoute(requestsRoute.POST, 'POST', '/api/requests', { key: ws.key, body: { prompt: 'Anyone there?', topic_id: ws.topicId, summarize: true } })
      ).body.data.id;
      await drain();
      const request = await getRequest(ws.key, id);
      expect(request.status).toBe('completed');
      expect(request.result).toMatch(/^\[offline model\] /);
      const topic = await callRoute(topicRoute.GET, 'GET', `/api/topics/${ws.topicId}`, { key: ws.key, params: { id: ws.topicId } });
      expect(topic.body.data.summary).toMatch(/^\[\d{4}-\d{2}-\d{2}\] \[offline model\] Asked: "Anyone there\?"$/);
      expect(fake.requests).toHaveLength(0);
    } finally {
      process.env.MODEL_BACKEND = 'anthropic';
      resetConfigForTests();
    }
  });
});

describe('backends with their own sessions', () => {
  it('resume the session they started instead of replaying it', async () => {
    const ws = await workspaceWithTopic('codex');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mv-topic-codex-'));
    const log = path.join(dir, 'calls.jsonl');
    const bin = path.join(dir, 'codex');
    // A stand-in for `codex exec --json`: records its arguments, starts thread-7, answers in plain text.
    await writeFile(
      bin,
      `#!/usr/bin/env node
const fs = require('node:fs');
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(process.argv.slice(2)) + '\\n');
const out = (e) => process.stdout.write(JSON.stringify(e) + '\\n');
if (!process.argv.includes('resume')) out({ type: 'thread.started', thread_id: 'thread-7' });
out({ type: 'item.completed', item: { type: 'agent_message', text: JSON.stringify({ message: 'Noted.', tool_calls: [] }) } });
out({ type: 'turn.completed', usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } });
`,
    );
    await chmod(bin, 0o755);
    const restore = useFakeModelEnv({ CODEX_BIN: bin, MODEL_BACKEND: 'codex' });
    try {
      const first = await submit(ws.key, ws.topicId, 'Remember the number 7.');
      await drain();
      const { session_id } = await getRequest(ws.key, first);
      const second = await callRoute(requestsRoute.POST, 'POST', '/api/requests', { key: ws.key, body: { prompt: 'Which number?', topic_id: ws.topicId, session_id } });
      await drain();
      expect((await getRequest(ws.key, second.body.data.id)).result).toBe('Noted.');
      const [opening, resumed] = (await readFile(log, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as string[]);
      expect(opening).not.toContain('resume');
      expect(resumed).toEqual(expect.arrayContaining(['resume', 'thread-7']));
      expect(resumed!.at(-1)).toBe('Which number?');
    } finally {
      restore();
    }
  });
});

interface CountingProxy {
  url: string;
  /** The most model calls in flight at once, per system prompt (each test workspace has its own). */
  maxInFlight: Map<string, number>;
  reset(): void;
  close(): Promise<void>;
}

/**
 * Sits between the runtime and the fake server and counts model calls in flight. Each call is held a
 * few milliseconds, so two calls that could overlap do.
 */
async function startCountingProxy(target: string): Promise<CountingProxy> {
  const inFlight = new Map<string, number>();
  const maxInFlight = new Map<string, number>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const system = (JSON.parse(raw || '{}').system as Array<{ text: string }> | undefined)?.[0]?.text ?? '';
    inFlight.set(system, (inFlight.get(system) ?? 0) + 1);
    maxInFlight.set(system, Math.max(maxInFlight.get(system) ?? 0, inFlight.get(system)!));
    try {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k))) as Record<string, string>;
      const upstream = await fetch(`${target}${req.url}`, { method: req.method, headers, body: raw || undefined });
      const text = await upstream.text();
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    } finally {
      inFlight.set(system, inFlight.get(system)! - 1);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    maxInFlight,
    reset: () => maxInFlight.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
