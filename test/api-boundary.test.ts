import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { saveQueueConcurrency } from '@/app/w/[workspaceId]/settings/api-keys/actions';
import * as inngestRoute from '@/app/api/inngest/route';
import * as dailyBriefRoute from '@/app/api/home/daily-brief/route';
import * as prefsRoute from '@/app/api/home/prefs/route';
import * as topicsRoute from '@/app/api/topics/route';
import * as workspacesRoute from '@/app/api/workspaces/route';
import * as artifactVersionRoute from '@/app/api/artifacts/[artifactId]/versions/[version]/route';
import * as artifactDiffRoute from '@/app/api/artifacts/[artifactId]/diff/route';
import * as artifactRestoreRoute from '@/app/api/artifacts/[artifactId]/restore/route';
import * as agentResultsRoute from '@/app/api/agents/me/results/route';
import * as reactionsRoute from '@/app/api/conversations/[conversationId]/messages/[messageId]/reactions/route';
import * as decisionsRoute from '@/app/api/workspaces/[workspaceId]/decisions/route';
import * as insightsRoute from '@/app/api/workspaces/[workspaceId]/insights/route';
import * as outboxRoute from '@/app/api/workspaces/[workspaceId]/outbox/route';
import * as appointmentsRoute from '@/app/api/workspaces/[workspaceId]/appointments/route';
import { createAgent, createAgentKey, exchangeAgentCredential } from '@/lib/agents';
import { publishArtifact } from '@/lib/artifacts';
import { ACCESS_COOKIE, signAccessToken } from '@/lib/auth';
import { createConversation, sendMessage } from '@/lib/chat';
import { resetConfigForTests } from '@/lib/config';
import { asService, type SessionUser } from '@/lib/db';
import { handleMcpRequest } from '@/lib/mcp';
import { createApiKey } from '@/lib/topics';
import { createWorkspace, type Workspace } from '@/lib/workspaces';
import { setupTestDatabase } from './db';
import { createUser, joinWorkspace } from './fixtures';

/** What every route does with who is calling and what they send, before any route's own logic runs. */

setupTestDatabase();

// Server actions read the session from the request's cookies through next/headers.
const session = vi.hoisted(() => ({ cookie: '' }));
vi.mock('next/headers', () => ({
  cookies: async () => ({ get: (name: string) => (session.cookie.startsWith(`${name}=`) ? { value: session.cookie.slice(name.length + 1) } : undefined) }),
  headers: async () => new Headers(session.cookie ? { cookie: session.cookie } : {}),
}));

type Handler = (req: Request, segment?: { params?: Promise<Record<string, string>> }) => Promise<Response>;

async function call(
  handler: unknown,
  { method = 'GET', path = '/api/test', user, headers = {}, params = {}, body }: { method?: string; path?: string; user?: SessionUser; headers?: Record<string, string>; params?: Record<string, string>; body?: string } = {},
) {
  const cookie: Record<string, string> = user ? { cookie: `${ACCESS_COOKIE}=${await signAccessToken(user)}` } : {};
  const req = new Request(`http://localhost${path}`, { method, headers: { 'content-type': 'application/json', ...cookie, ...headers }, body });
  const res = await (handler as Handler)(req, { params: Promise.resolve(params) });
  return { status: res.status, json: await res.json() };
}

let owner: SessionUser;
let member: SessionUser;
let stranger: SessionUser;
let team: Workspace;

beforeAll(async () => {
  [owner, member, stranger] = await Promise.all([createUser('owner'), createUser('member'), createUser('stranger')]);
  team = await createWorkspace(owner, { name: 'Studio' });
  await joinWorkspace(owner, team.id, member);
});

describe('membership before data', () => {
  it('answers a signed-in stranger 404 on every workspace list, as on the daily brief, and a member 200', async () => {
    const lists = [
      [decisionsRoute.GET, `/api/workspaces/${team.id}/decisions`],
      [insightsRoute.GET, `/api/workspaces/${team.id}/insights`],
      [outboxRoute.GET, `/api/workspaces/${team.id}/outbox`],
      [prefsRoute.GET, `/api/home/prefs?workspace_id=${team.id}`],
      [dailyBriefRoute.GET, `/api/home/daily-brief?workspace_id=${team.id}`],
    ] as const;
    for (const [handler, path] of lists) {
      const params = { workspaceId: team.id };
      const asStranger = await call(handler, { path, user: stranger, params });
      expect([path, asStranger.status, asStranger.json.error?.code]).toEqual([path, 404, 'not_found']);
      expect([path, (await call(handler, { path, user: member, params })).status]).toEqual([path, 200]);
    }
    const put = await call(prefsRoute.PUT, { method: 'PUT', path: `/api/home/prefs?workspace_id=${team.id}`, user: stranger, body: JSON.stringify({ pinnedPlanets: ['crm'] }) });
    expect(put.status).toBe(404);
  });
});

describe('authentication before validation', () => {
  it('answers 401 without a session whatever the input, and tells nothing about the schema', async () => {
    for (const [handler, path, method, body] of [
      [dailyBriefRoute.GET, '/api/home/daily-brief', 'GET'],
      [dailyBriefRoute.GET, '/api/home/daily-brief?workspace_id=nope', 'GET'],
      [prefsRoute.PUT, '/api/home/prefs', 'PUT', '{"sections": 7'],
      [decisionsRoute.GET, '/api/workspaces/nope/decisions?limit=many', 'GET'],
      [appointmentsRoute.POST, '/api/workspaces/nope/appointments', 'POST', '{}'],
    ] as const) {
      const res = await call(handler, { method, path, body, params: { workspaceId: 'nope' } });
      expect([path, res.status, res.json.error]).toEqual([path, 401, { code: 'unauthorized', message: 'Sign in to continue.' }]);
    }
  });
});

describe('text Postgres cannot store', () => {
  it('refuses a NUL character with a 422 naming the field, in a body, a key and a query, before anything is written', async () => {
    const { secret } = await createApiKey(owner, team.id, { name: 'site' });
    const topic = await call(topicsRoute.POST, { method: 'POST', headers: { 'x-api-key': secret }, body: JSON.stringify({ name: 'co\u0000ding', system_prompt: 'You help.' }) });
    expect(topic.status).toBe(422);
    expect(topic.json.error.details.fieldErrors).toEqual({ name: ['Text cannot contain the NUL character (\\u0000)'] });
    expect(topic.json.error.message).toBe('The request body is invalid (name: Text cannot contain the NUL character (\\u0000)).');
    expect((await call(topicsRoute.GET, { headers: { 'x-api-key': secret } })).json.data).toEqual([]);

    const workspace = await call(workspacesRoute.POST, { method: 'POST', user: owner, body: JSON.stringify({ name: 'Nul', settings: { 'a\u0000': 1, list: ['ok', 'n\u0000'] } }) });
    expect(workspace.status).toBe(422);
    expect(Object.keys(workspace.json.error.details.fieldErrors).sort()).toEqual(['settings.a\\u0000', 'settings.list.1']);

    const { conversation } = await createConversation(owner, { kind: 'channel', workspaceId: team.id, name: 'general' });
    const message = await sendMessage({ kind: 'person', user: owner }, conversation.id, 'Hello');
    const reaction = await call(reactionsRoute.DELETE, {
      method: 'DELETE',
      path: `/api/conversations/${conversation.id}/messages/${message.id}/reactions?emoji=%F0%9F%91%8D%00`,
      user: owner,
      params: { conversationId: conversation.id, messageId: message.id },
    });
    expect(reaction.status).toBe(422);
    expect(Object.keys(reaction.json.error.details.fieldErrors)).toEqual(['emoji']);
  });

  it('refuses JSON nested deeper than 64 levels with a 422 instead of failing on it', async () => {
    const nova = await createAgent(owner, { name: 'Nova', runtime: 'local', backend: 'offline', workspaces: [team.id] });
    const { conversation: dm } = await createConversation(owner, { kind: 'dm', workspaceId: team.id, agentIds: [nova.id] });
    const token = (await exchangeAgentCredential((await createAgentKey(owner, nova.id)).key)).token;
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const res = await call(agentResultsRoute.POST, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: `{"conversationId": "${dm.id}", "results": [{"type": "note", "data": {"text": "x", "extra": ${deep}}}]}`,
    });
    expect(res.status).toBe(422);
    expect(res.json.error.message).toMatch(/^The request body is invalid \(results\.0\.data\.extra(\.0)+: Nest values at most 64 levels deep\)\.$/);
  });

  it('MCP refuses a NUL in a task as an error naming the field, and no conversation is opened for it', async () => {
    await createAgent(owner, { name: 'Iris', runtime: 'local', backend: 'offline', workspaces: [team.id] });
    const { secret } = await createApiKey(owner, team.id, { name: 'mcp' });
    const conversations = () => asService((tx) => tx.query(`select id from public.conversations where workspace_id = $1`, [team.id])).then((r) => r.length);
    const before = await conversations();
    const res = await handleMcpRequest(
      new Request('http://localhost/api/mcp', {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask_iris', arguments: { task: 'Draft\u0000 a post', wait_seconds: 0 } } }),
      }),
    );
    const answer = (await res.json()) as { result: { isError: boolean; content: { text: string }[] } };
    expect(answer.result.isError).toBe(true);
    expect(answer.result.content[0]!.text).toContain('task');
    expect(answer.result.content[0]!.text).toContain('NUL character');
    expect(await conversations()).toBe(before);
  });
});

describe('numbers Postgres integers cannot hold', () => {
  it('answers an artifact version beyond 2^31 - 1 with a 4xx, not a failed query', async () => {
    const { conversation } = await createConversation(owner, { kind: 'channel', workspaceId: team.id, name: 'docs' });
    const { artifact } = await publishArtifact({ kind: 'person', user: owner }, conversation.id, { kind: 'document', title: 'Plan', content: '# Plan' });
    const params = { artifactId: artifact.id, version: String(2 ** 31) };
    expect((await call(artifactVersionRoute.GET, { user: owner, params })).status).toBe(404);
    const diff = await call(artifactDiffRoute.GET, { path: `/api/artifacts/${artifact.id}/diff?from=1&to=${2 ** 31}`, user: owner, params });
    expect([diff.status, Object.keys(diff.json.error.details.fieldErrors)]).toEqual([422, ['to']]);
    const restore = await call(artifactRestoreRoute.POST, { method: 'POST', user: owner, params, body: JSON.stringify({ version: 2 ** 31 }) });
    expect([restore.status, restore.json.error.details.fieldErrors]).toEqual([422, { version: ['No artifact has that many versions'] }]);
  });
});

describe('/api/inngest', () => {
  afterEach(() => {
    delete process.env.INNGEST_EVENT_KEY;
    delete process.env.INNGEST_SIGNING_KEY;
    resetConfigForTests();
  });

  it('is closed without Inngest keys: 404 in the envelope for any request', async () => {
    for (const [method, body] of [['GET'], ['POST', '{"event": {}}'], ['PUT', '']] as const) {
      const res = await call(inngestRoute[method], { method, path: '/api/inngest', body });
      expect([method, res.status, res.json.error?.code]).toEqual([method, 404, 'not_found']);
    }
  });

  it('with keys, leaves the signature check to Inngest (401 unsigned) and refuses a body that is not JSON (400)', async () => {
    Object.assign(process.env, { INNGEST_EVENT_KEY: 'test-event-key', INNGEST_SIGNING_KEY: 'signkey-test-0123456789abcdef0123456789abcdef' });
    resetConfigForTests();
    expect((await call(inngestRoute.POST, { method: 'POST', path: '/api/inngest?fnId=x&stepId=step', body: '{}' })).status).toBe(401);
    const notJson = await call(inngestRoute.POST, { method: 'POST', path: '/api/inngest?fnId=x&stepId=step', body: '{"broken' });
    expect([notJson.status, notJson.json.error?.code]).toEqual([400, 'bad_request']);
  });
});

describe('server actions', () => {
  it('answer a workspace id that is not one with a sentence, not a failed query', async () => {
    session.cookie = `${ACCESS_COOKIE}=${await signAccessToken(owner)}`;
    for (const workspaceId of ['a\u0000b', 42 as unknown as string, 'not-a-workspace']) {
      expect(await saveQueueConcurrency(workspaceId, 2)).toEqual({ error: 'This workspace was not found.' });
    }
    expect(await saveQueueConcurrency(team.id, 2)).toEqual({});
  });
});
