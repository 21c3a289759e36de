import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as healthRoute from '@/app/api/health/route';
import * as requestRoute from '@/app/api/requests/[id]/route';
import * as requestsRoute from '@/app/api/requests/route';
import * as sessionRoute from '@/app/api/sessions/[id]/route';
import * as sessionsRoute from '@/app/api/sessions/route';
import * as topicRoute from '@/app/api/topics/[id]/route';
import * as summarizeRoute from '@/app/api/topics/[id]/summarize/route';
import * as topicsRoute from '@/app/api/topics/route';
import { processTopicRequest } from '@/inngest/functions/process-topic-request';
import { startLocalExecutor } from '@/inngest/executor';
import { startFakeModelServer, useFakeModelEnv, type FakeModelServer, type RecordedRequest } from '@/lib/agent/testing';
import { resetConfigForTests } from '@/lib/config';
import { asService } from '@/lib/db';
import { createWorkspace } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { createApiKey } from './auth';
import { callRoute } from './testing';

/**
 * The OpusAgent contract (§3–8) against the route handlers, every endpoint and status code, with the
 * queue run by the local executor against the fake Anthropic server: what reached the model (system
 * prompt, resolved model, session history) is read from the server's record.
 */

process.env.LOG_LEVEL = 'silent';
setupTestDatabase();

let fake: FakeModelServer;
let restoreEnv: () => void;
let key: string;
let otherKey: string;

const ids = { topic: '', otherTopic: '' };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  fake = await startFakeModelServer();
  restoreEnv = useFakeModelEnv({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url, MODEL_BACKEND: 'anthropic', AGENT_MAX_RETRIES: '0' });
  Object.assign(process.env, { CLAUDE_MODEL: 'claude-default-from-env', RATE_LIMIT_PER_MINUTE: '1000', RATE_LIMIT_PER_HOUR: '1000' });
  resetConfigForTests();
  const owner = await createUser('owner');
  const workspace = await createWorkspace(owner, { name: 'Contract' });
  key = (await createApiKey(owner, workspace.id, { name: 'contract' })).secret;
  const other = await createWorkspace(owner, { name: 'Elsewhere' });
  otherKey = (await createApiKey(owner, other.id, { name: 'other' })).secret;
});
afterAll(async () => {
  restoreEnv();
  delete process.env.CLAUDE_MODEL;
  await fake.close();
});
afterEach(() => fake.reset());

/** Runs the queue until nothing is left, as the background executor does. */
async function drain() {
  const executor = await startLocalExecutor({ functions: [processTopicRequest] });
  await executor.runUntilIdle();
  await executor.stop();
}

const api = {
  listTopics: (k = key) => callRoute(topicsRoute.GET, 'GET', '/api/topics', { key: k }),
  createTopic: (body: unknown, k = key) => callRoute(topicsRoute.POST, 'POST', '/api/topics', { key: k, body }),
  getTopic: (id: string, k = key) => callRoute(topicRoute.GET, 'GET', `/api/topics/${id}`, { key: k, params: { id } }),
  updateTopic: (id: string, body: unknown) => callRoute(topicRoute.PUT, 'PUT', `/api/topics/${id}`, { key, body, params: { id } }),
  deleteTopic: (id: string) => callRoute(topicRoute.DELETE, 'DELETE', `/api/topics/${id}`, { key, params: { id } }),
  summarize: (id: string) => callRoute(summarizeRoute.POST, 'POST', `/api/topics/${id}/summarize`, { key, params: { id } }),
  submit: (body: unknown, headers?: Record<string, string>, k = key) => callRoute(requestsRoute.POST, 'POST', '/api/requests', { key: k, body, headers }),
  listRequests: (query = '') => callRoute(requestsRoute.GET, 'GET', `/api/requests${query}`, { key }),
  getRequest: (id: string, query = '') => callRoute(requestRoute.GET, 'GET', `/api/requests/${id}${query}`, { key, params: { id } }),
  deleteRequest: (id: string) => callRoute(requestRoute.DELETE, 'DELETE', `/api/requests/${id}`, { key, params: { id } }),
  listSessions: (query = '') => callRoute(sessionsRoute.GET, 'GET', `/api/sessions${query}`, { key }),
  getSession: (id: string) => callRoute(sessionRoute.GET, 'GET', `/api/sessions/${id}`, { key, params: { id } }),
  closeSession: (id: string) => callRoute(sessionRoute.DELETE, 'DELETE', `/api/sessions/${id}`, { key, params: { id } }),
};

/** The text of the messages of a request the fake server received, as [role, text] pairs. */
const conversation = (request: RecordedRequest) =>
  (request.body.messages as Array<{ role: string; content: Array<{ type: string; text?: string }> }>).map((m) => [
    m.role,
    m.content.filter((b) => b.type === 'text').map((b) => b.text).join(''),
  ]);
const systemText = (request: RecordedRequest) => (request.body.system as Array<{ text: string }>)[0]!.text;

describe('authentication (§9): X-Api-Key on every endpoint', () => {
  it('answers 403 in the envelope without a key, with a wrong one, and with one of another workspace for its objects', async () => {
    for (const k of ['', 'wrong', 'mvk_wrongwrongwrong']) {
      const response = await api.listTopics(k);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ success: false, data: null, error: { code: 'forbidden', message: expect.any(String) } });
    }
    const created = await api.createTopic({ name: 'private', system_prompt: 'x' });
    expect((await api.getTopic(created.body.data.id, otherKey)).status).toBe(404);
    expect((await api.listTopics(otherKey)).body.data).toEqual([]);
    expect((await api.deleteTopic(created.body.data.id)).status).toBe(200);
  });

  it('refuses every contract endpoint without a key', async () => {
    const id = UNKNOWN;
    const calls = [
      callRoute(topicsRoute.POST, 'POST', '/api/topics', { body: { name: 'x', system_prompt: 'y' } }),
      callRoute(topicRoute.GET, 'GET', `/api/topics/${id}`, { params: { id } }),
      callRoute(topicRoute.PUT, 'PUT', `/api/topics/${id}`, { body: {}, params: { id } }),
      callRoute(topicRoute.DELETE, 'DELETE', `/api/topics/${id}`, { params: { id } }),
      callRoute(summarizeRoute.POST, 'POST', `/api/topics/${id}/summarize`, { params: { id } }),
      callRoute(requestsRoute.GET, 'GET', '/api/requests'),
      callRoute(requestsRoute.POST, 'POST', '/api/requests', { body: { prompt: 'x', topic_id: id } }),
      callRoute(requestRoute.GET, 'GET', `/api/requests/${id}`, { params: { id } }),
      callRoute(requestRoute.DELETE, 'DELETE', `/api/requests/${id}`, { params: { id } }),
      callRoute(sessionsRoute.GET, 'GET', '/api/sessions'),
      callRoute(sessionRoute.DELETE, 'DELETE', `/api/sessions/${id}`, { params: { id } }),
    ];
    for (const response of await Promise.all(calls)) expect(response.status).toBe(403);
  });
});

describe('topics (§4.1)', () => {
  it('POST creates (201) with the contract’s fields; GET lists and reads them', async () => {
    const body = { name: 'coding', system_prompt: 'Sei un esperto sviluppatore Python e TypeScript...', summary: 'Programmazione', model: 'claude-opus-4-7' };
    const created = await api.createTopic(body);
    expect(created.status).toBe(201);
    expect(created.body.error).toBeNull();
    expect(created.body.data).toEqual({ id: expect.any(String), ...body, created_at: expect.any(String), updated_at: expect.any(String) });
    expect(Date.parse(created.body.data.created_at)).not.toBeNaN();
    ids.topic = created.body.data.id;

    const other = await api.createTopic({ name: 'analisi', system_prompt: 'Analizza.' });
    expect(other.body.data).toMatchObject({ summary: '', model: null });
    ids.otherTopic = other.body.data.id;

    const list = await api.listTopics();
    expect(list.status).toBe(200);
    expect(list.body.data.map((t: { name: string }) => t.name)).toEqual(['coding', 'analisi']);
    const one = await api.getTopic(ids.topic);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(created.body.data);
  });

  it('POST: 409 for a duplicate name, 422 for an invalid model, a missing field or a body that is not JSON', async () => {
    const duplicate = await api.createTopic({ name: 'coding', system_prompt: 'again' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('conflict');
    expect((await api.createTopic({ name: 'gpt', system_prompt: 'x', model: 'gpt-4o' })).status).toBe(422);
    const missing = await api.createTopic({ system_prompt: 'x' });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details.fieldErrors.name).toBeDefined();
    expect((await api.createTopic('{not json')).status).toBe(422);
    // Any id starting with claude- is accepted, for models released later.
    const future = await api.createTopic({ name: 'future', system_prompt: 'x', model: 'claude-future-9' });
    expect(future.status).toBe(201);
    expect((await api.deleteTopic(future.body.data.id)).status).toBe(200);
  });

  it('GET /{id}: 404 for an unknown or malformed id', async () => {
    expect((await api.getTopic(UNKNOWN)).status).toBe(404);
    const malformed = await api.getTopic('not-a-uuid');
    expect(malformed.status).toBe(404);
    expect(malformed.body.error.code).toBe('not_found');
  });

  it('PUT changes only the fields sent; 409 for a taken name, 422 for an invalid model, 404 for an unknown id', async () => {
    const before = (await api.getTopic(ids.otherTopic)).body.data;
    const updated = await api.updateTopic(ids.otherTopic, { system_prompt: 'Analizza con cura.', summary: 'Note' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'analisi', system_prompt: 'Analizza con cura.', summary: 'Note', model: null });
    expect(Date.parse(updated.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
    expect((await api.updateTopic(ids.otherTopic, { name: 'coding' })).status).toBe(409);
    expect((await api.updateTopic(ids.otherTopic, { model: 'o3' })).status).toBe(422);
    expect((await api.updateTopic(UNKNOWN, { summary: 'x' })).status).toBe(404);
  });
});

describe('requests (§4.2, §5.1, §7): the queue, the model cascade and the system prompt', () => {
  it('POST queues (202 with id, session_id, status, created_at); GET follows it to completed with the result', async () => {
    fake.script({ text: 'Per implementare un middleware JWT in FastAPI...' });
    const submitted = await api.submit({ prompt: 'Come implemento un middleware JWT?', topic_id: ids.topic, session_id: null, model: null, summarize: false });
    expect(submitted.status).toBe(202);
    expect(submitted.body.data).toEqual({ id: expect.any(String), session_id: expect.any(String), status: 'pending', created_at: expect.any(String) });
    expect(submitted.headers.get('location')).toBe(`/api/requests/${submitted.body.data.id}`);
    expect(submitted.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);

    const pending = await api.getRequest(submitted.body.data.id);
    expect(pending.body.data).toMatchObject({ status: 'pending', result: null, error: null, completed_at: null });
    await drain();

    const done = await api.getRequest(submitted.body.data.id);
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({
      id: submitted.body.data.id,
      session_id: submitted.body.data.session_id,
      topic_id: ids.topic,
      prompt: 'Come implemento un middleware JWT?',
      model: null,
      summarize: false,
      status: 'completed',
      result: 'Per implementare un middleware JWT in FastAPI...',
      error: null,
      created_at: submitted.body.data.created_at,
      completed_at: expect.any(String),
      resolved_model: 'claude-opus-4-7',
    });
    // One model call: the topic's system prompt, the topic's model (no request model), the prompt alone.
    expect(fake.requests).toHaveLength(1);
    expect(systemText(fake.requests[0]!)).toBe('Sei un esperto sviluppatore Python e TypeScript...');
    expect(fake.requests[0]!.body.model).toBe('claude-opus-4-7');
    expect(conversation(fake.requests[0]!)).toEqual([['user', 'Come implemento un middleware JWT?']]);
  });

  it('resolves the model request → topic → CLAUDE_MODEL', async () => {
    await api.submit({ prompt: 'request model', topic_id: ids.topic, model: 'claude-haiku-4-5-20251001' });
    await drain();
    await api.submit({ prompt: 'topic model', topic_id: ids.topic });
    await drain();
    await api.submit({ prompt: 'default model', topic_id: ids.otherTopic });
    await drain();
    expect(fake.requests.map((r) => [conversation(r).at(-1)![1], r.body.model])).toEqual([
      ['request model', 'claude-haiku-4-5-20251001'],
      ['topic model', 'claude-opus-4-7'],
      ['default model', 'claude-default-from-env'],
    ]);
    expect(systemText(fake.requests[2]!)).toBe('Analizza con cura.');
  });

  it('POST: 404 for an unknown topic, 422 for a missing prompt, an invalid model or a malformed body', async () => {
    expect((await api.submit({ prompt: 'x', topic_id: UNKNOWN })).status).toBe(404);
    expect((await api.submit({ prompt: 'x', topic_id: 'nope' })).status).toBe(404);
    expect((await api.submit({ topic_id: ids.topic })).status).toBe(422);
    expect((await api.submit({ prompt: '   ', topic_id: ids.topic })).status).toBe(422);
    expect((await api.submit({ prompt: 'x', topic_id: ids.topic, model: 'gpt-5' })).status).toBe(422);
    expect((await api.submit({ prompt: 'x' })).status).toBe(422);
    expect((await api.submit('[]')).status).toBe(422);
  });

  it('GET /api/requests filters by status, topic_id and session_id; 422 for an unknown status', async () => {
    const a = await api.submit({ prompt: 'filter me', topic_id: ids.otherTopic });
    const all = await api.listRequests();
    expect(all.status).toBe(200);
    expect(all.body.data[0].id).toBe(a.body.data.id); // newest first
    expect((await api.listRequests('?status=pending')).body.data.map((r: { id: string }) => r.id)).toEqual([a.body.data.id]);
    const byTopic = (await api.listRequests(`?topic_id=${ids.otherTopic}`)).body.data;
    expect(byTopic.every((r: { topic_id: string }) => r.topic_id === ids.otherTopic)).toBe(true);
    expect((await api.listRequests(`?session_id=${a.body.data.session_id}`)).body.data).toHaveLength(1);
    expect((await api.listRequests(`?status=completed&topic_id=${ids.otherTopic}`)).body.data.map((r: { prompt: string }) => r.prompt)).toEqual(['default model']);
    expect((await api.listRequests('?status=done')).status).toBe(422);
    expect((await api.listRequests('?topic_id=nope')).body.data).toEqual([]);
    expect((await api.deleteRequest(a.body.data.id)).status).toBe(200);
  });

  it('DELETE removes a pending request (200); 409 once it is not pending; 404 for an unknown one', async () => {
    const pending = await api.submit({ prompt: 'withdraw me', topic_id: ids.topic });
    const deleted = await api.deleteRequest(pending.body.data.id);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: pending.body.data.id, deleted: true });
    expect((await api.getRequest(pending.body.data.id)).status).toBe(404);
    expect((await api.deleteRequest(pending.body.data.id)).status).toBe(404);

    const completed = (await api.listRequests('?status=completed')).body.data[0];
    const refused = await api.deleteRequest(completed.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/completed/);
    expect(fake.requests).toHaveLength(0);
  });

  it('GET ?wait=N returns as soon as the request finishes; 422 above 60', async () => {
    const submitted = await api.submit({ prompt: 'wait for me', topic_id: ids.topic });
    const executor = await startLocalExecutor({ functions: [processTopicRequest] });
    try {
      const waited = await api.getRequest(submitted.body.data.id, '?wait=30');
      expect(waited.body.data.status).toBe('completed');
    } finally {
      await executor.stop();
    }
    expect((await api.getRequest(submitted.body.data.id, '?wait=61')).status).toBe(422);
  });

  it('GET ?wait=N gives up after N seconds and returns the request as it is', async () => {
    const submitted = await api.submit({ prompt: 'nobody runs me', topic_id: ids.otherTopic });
    const waited = await api.getRequest(submitted.body.data.id, '?wait=1');
    expect(waited.body.data.status).toBe('pending');
    expect((await api.deleteRequest(submitted.body.data.id)).status).toBe(200);
  });

  it('Idempotency-Key: the same key and body return the same request; another body is 422', async () => {
    const body = { prompt: 'once only', topic_id: ids.topic };
    const first = await api.submit(body, { 'Idempotency-Key': 'order-42' });
    const again = await api.submit(body, { 'Idempotency-Key': 'order-42' });
    expect(again.status).toBe(202);
    expect(again.body.data).toEqual(first.body.data);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await api.submit({ ...body, prompt: 'something else' }, { 'Idempotency-Key': 'order-42' });
    expect(other.status).toBe(422);
    expect((await api.listRequests('?status=pending')).body.data.filter((r: { prompt: string }) => r.prompt === 'once only')).toHaveLength(1);
    expect((await api.deleteRequest(first.body.data.id)).status).toBe(200);
  });

  it('Idempotency-Key: a key older than 24 hours is forgotten, and the same key makes a new request', async () => {
    const body = { prompt: 'every day', topic_id: ids.topic };
    const yesterday = await api.submit(body, { 'Idempotency-Key': 'daily-1' });
    await asService((tx) => tx.query(`update public.topic_requests set created_at = created_at - interval '25 hours' where id = $1`, [yesterday.body.data.id]));
    const today = await api.submit(body, { 'Idempotency-Key': 'daily-1' });
    expect(today.status).toBe(202);
    expect(today.headers.get('idempotent-replayed')).toBeNull();
    expect(today.body.data.id).not.toBe(yesterday.body.data.id);
    // And from now on the key means today's request.
    expect((await api.submit(body, { 'Idempotency-Key': 'daily-1' })).body.data.id).toBe(today.body.data.id);
    for (const id of [yesterday.body.data.id, today.body.data.id]) await api.deleteRequest(id);
  });
});

describe('sessions (§4.3, §5.2): server-generated ids, the whole conversation replayed', () => {
  it('continues a session with its history; one-shot requests stay independent', async () => {
    fake.script({ text: 'Use a dependency.' }, { text: 'Raise HTTPException(401).' }, { text: 'Independent answer.' });
    const first = await api.submit({ prompt: 'How do I check a JWT in FastAPI?', topic_id: ids.topic });
    await drain();
    const second = await api.submit({ prompt: 'And when it is expired?', topic_id: ids.topic, session_id: first.body.data.session_id });
    expect(second.body.data.session_id).toBe(first.body.data.session_id);
    await drain();
    const oneShot = await api.submit({ prompt: 'Unrelated question', topic_id: ids.topic });
    expect(oneShot.body.data.session_id).not.toBe(first.body.data.session_id);
    await drain();

    expect(conversation(fake.requests[1]!)).toEqual([
      ['user', 'How do I check a JWT in FastAPI?'],
      ['assistant', 'Use a dependency.'],
      ['user', 'And when it is expired?'],
    ]);
    expect(systemText(fake.requests[1]!)).toBe('Sei un esperto sviluppatore Python e TypeScript...');
    expect(conversation(fake.requests[2]!)).toEqual([['user', 'Unrelated question']]);
    expect((await api.getRequest(second.body.data.id)).body.data.result).toBe('Raise HTTPException(401).');

    const conversationView = await api.getSession(first.body.data.session_id);
    expect(conversationView.status).toBe(200);
    expect(conversationView.body.data.requests.map((r: { prompt: string }) => r.prompt)).toEqual(['How do I check a JWT in FastAPI?', 'And when it is expired?']);
  });

  it('GET /api/sessions lists active sessions with request counts; DELETE closes one; closed sessions refuse requests (409)', async () => {
    const started = await api.submit({ prompt: 'Open a session', topic_id: ids.otherTopic });
    await drain();
    const sessionId = started.body.data.session_id;
    await api.submit({ prompt: 'Second turn', topic_id: ids.otherTopic, session_id: sessionId });
    await drain();

    const listed = await api.listSessions();
    expect(listed.status).toBe(200);
    const session = listed.body.data.find((s: { session_id: string }) => s.session_id === sessionId);
    expect(session).toEqual({
      id: sessionId,
      session_id: sessionId,
      topic_id: ids.otherTopic,
      request_count: 2,
      created_at: expect.any(String),
      last_request_at: expect.any(String),
      closed_at: null,
    });
    expect((await api.listSessions(`?topic_id=${ids.otherTopic}`)).body.data.every((s: { topic_id: string }) => s.topic_id === ids.otherTopic)).toBe(true);

    const closed = await api.closeSession(sessionId);
    expect(closed.status).toBe(200);
    expect(closed.body.data.closed_at).toEqual(expect.any(String));
    expect((await api.closeSession(sessionId)).status).toBe(200);
    expect((await api.listSessions()).body.data.some((s: { session_id: string }) => s.session_id === sessionId)).toBe(false);
    expect((await api.listSessions('?include_closed=true')).body.data.some((s: { session_id: string }) => s.session_id === sessionId)).toBe(true);

    const refused = await api.submit({ prompt: 'Third turn', topic_id: ids.otherTopic, session_id: sessionId });
    expect(refused.status).toBe(409);
    // The existing requests stay.
    expect((await api.listRequests(`?session_id=${sessionId}`)).body.data).toHaveLength(2);
  });

  it('refuses a session of another topic (422), an unknown session (404) and closing an unknown session (404)', async () => {
    const started = await api.submit({ prompt: 'Topic A', topic_id: ids.topic });
    const wrongTopic = await api.submit({ prompt: 'Topic B', topic_id: ids.otherTopic, session_id: started.body.data.session_id });
    expect(wrongTopic.status).toBe(422);
    expect(wrongTopic.body.error.message).toMatch(/another topic/);
    expect((await api.submit({ prompt: 'x', topic_id: UNKNOWN, session_id: started.body.data.session_id })).status).toBe(404);
    expect((await api.submit({ prompt: 'x', topic_id: ids.topic, session_id: UNKNOWN })).status).toBe(404);
    expect((await api.submit({ prompt: 'x', topic_id: ids.topic, session_id: 'made-up-by-the-client' })).status).toBe(404);
    expect((await api.closeSession(UNKNOWN)).status).toBe(404);
    expect((await api.getSession(UNKNOWN)).status).toBe(404);
    await drain();
  });
});

describe('summaries (§5.3, §5.4)', () => {
  it('summarize: true appends "[YYYY-MM-DD] …" to the topic summary after the answer', async () => {
    const topic = await api.createTopic({ name: 'notes', system_prompt: 'Answer briefly.', summary: 'Start.' });
    fake.script({ text: 'Use asyncio.gather.' }, { text: 'Discussed running coroutines concurrently.' });
    const submitted = await api.submit({ prompt: 'How do I run coroutines concurrently?', topic_id: topic.body.data.id, summarize: true });
    await drain();
    expect((await api.getRequest(submitted.body.data.id)).body.data).toMatchObject({ status: 'completed', result: 'Use asyncio.gather.', summarize: true });
    const summary = (await api.getTopic(topic.body.data.id)).body.data.summary as string;
    expect(summary).toMatch(/^Start\.\n\[\d{4}-\d{2}-\d{2}\] Discussed running coroutines concurrently\.$/);
    // The second call summarized the exchange: question and answer both in it.
    expect(fake.requests).toHaveLength(2);
    expect(conversation(fake.requests[1]!)[0]![1]).toContain('How do I run coroutines concurrently?');
    expect(conversation(fake.requests[1]!)[0]![1]).toContain('Use asyncio.gather.');
  });

  it('POST /summarize replaces the summary with one of all completed exchanges and returns it; 409 with none; 404 unknown', async () => {
    const empty = await api.createTopic({ name: 'empty', system_prompt: 'x' });
    expect((await api.summarize(empty.body.data.id)).status).toBe(409);
    expect((await api.summarize(UNKNOWN)).status).toBe(404);

    const topic = await api.createTopic({ name: 'full', system_prompt: 'x', summary: 'old notes', model: 'claude-sonnet-4-6' });
    for (const prompt of ['First question', 'Second question']) await api.submit({ prompt, topic_id: topic.body.data.id });
    await drain();
    fake.reset();
    fake.script({ text: 'Two questions were asked and answered.' });
    const summarized = await api.summarize(topic.body.data.id);
    expect(summarized.status).toBe(200);
    expect(summarized.body.data).toMatchObject({ id: topic.body.data.id, summary: 'Two questions were asked and answered.' });
    const sent = conversation(fake.requests[0]!)[0]![1];
    expect(sent).toContain('First question');
    expect(sent).toContain('Second question');
    expect(fake.requests[0]!.body.model).toBe('claude-sonnet-4-6');
  });

  it('POST /summarize answers 502 with the provider’s message when the model fails', async () => {
    const topic = (await api.listTopics()).body.data.find((t: { name: string }) => t.name === 'full');
    fake.script({ error: { status: 400, message: 'prompt is too long' } });
    const failed = await api.summarize(topic.id);
    expect(failed.status).toBe(502);
    expect(failed.body.error.message).toMatch(/prompt is too long/);
  });
});

describe('DELETE /api/topics/{id}', () => {
  it('refuses while requests are pending (409), then deletes the topic with its finished requests; 404 after', async () => {
    const topic = await api.createTopic({ name: 'short-lived', system_prompt: 'x' });
    const submitted = await api.submit({ prompt: 'still pending', topic_id: topic.body.data.id });
    const refused = await api.deleteTopic(topic.body.data.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/pending or processing/);
    await drain();
    const deleted = await api.deleteTopic(topic.body.data.id);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: topic.body.data.id, deleted: true });
    expect((await api.getTopic(topic.body.data.id)).status).toBe(404);
    expect((await api.getRequest(submitted.body.data.id)).status).toBe(404);
    expect((await api.deleteTopic(topic.body.data.id)).status).toBe(404);
  });
});

describe('PII boundary', () => {
  it('sends aliases to the model and stores the answer with the real values', async () => {
    fake.respond = (request) => {
      const alias = /email-[0-9A-F]+/.exec(request.text)?.[0] ?? 'no alias';
      return { text: `I will write to ${alias}.` };
    };
    const submitted = await api.submit({ prompt: 'Write to mario.rossi@example.com about the invoice.', topic_id: ids.topic });
    await drain();
    expect(fake.requests[0]!.text).not.toContain('mario.rossi@example.com');
    expect((await api.getRequest(submitted.body.data.id)).body.data.result).toBe('I will write to mario.rossi@example.com.');
  });
});

describe('rate limits (§8): POST /api/requests only, per key', () => {
  // The hour runs out here rather than the minute: a fixed window's edge falling inside the test is 60 times less likely.
  it('answers 429 with Retry-After, X-RateLimit-Remaining and the IETF fields once a window is used up', async () => {
    Object.assign(process.env, { RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_PER_HOUR: '2' });
    resetConfigForTests();
    try {
      const owner = await createUser('limited');
      const workspace = await createWorkspace(owner, { name: 'Limited' });
      const limited = (await createApiKey(owner, workspace.id, { name: 'limited' })).secret;
      const sibling = (await createApiKey(owner, workspace.id, { name: 'sibling' })).secret;
      const topic = await callRoute(topicsRoute.POST, 'POST', '/api/topics', { key: limited, body: { name: 't', system_prompt: 'x' } });
      const body = { prompt: 'x', topic_id: topic.body.data.id };
      const first = await api.submit(body, undefined, limited);
      expect(first.status).toBe(202);
      expect(first.headers.get('ratelimit-policy')).toBe('"minute";q=100;w=60, "hour";q=2;w=3600');
      expect(first.headers.get('ratelimit')).toMatch(/^"hour";r=1;t=\d+$/);
      expect((await api.submit(body, undefined, limited)).status).toBe(202);
      const refused = await api.submit(body, undefined, limited);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('ratelimit')).toMatch(/^"hour";r=0;t=\d+$/);
      // Reads and topic management are not limited; another key of the same workspace has its own count.
      expect((await callRoute(requestsRoute.GET, 'GET', '/api/requests', { key: limited })).status).toBe(200);
      expect((await callRoute(topicsRoute.POST, 'POST', '/api/topics', { key: limited, body: { name: 't2', system_prompt: 'x' } })).status).toBe(201);
      expect((await api.submit(body, undefined, sibling)).status).toBe(202);
    } finally {
      Object.assign(process.env, { RATE_LIMIT_PER_MINUTE: '1000', RATE_LIMIT_PER_HOUR: '1000' });
      resetConfigForTests();
      await drain();
    }
  });
});

describe('GET /api/health (§4.4)', () => {
  it('answers in the envelope with the status of the database, the worker and the model backends', async () => {
    const response = await callRoute(healthRoute.GET, 'GET', '/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, error: null, data: { status: 'ok', database: { ok: true }, models: { active: 'anthropic' } } });
  });
});
