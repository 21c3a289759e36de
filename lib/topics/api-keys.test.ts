import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as keyRoute from '@/app/api/workspaces/[workspaceId]/api-keys/[keyId]/route';
import * as keysRoute from '@/app/api/workspaces/[workspaceId]/api-keys/route';
import * as requestRoute from '@/app/api/requests/[id]/route';
import * as requestsRoute from '@/app/api/requests/route';
import * as sessionRoute from '@/app/api/sessions/[id]/route';
import * as topicRoute from '@/app/api/topics/[id]/route';
import * as topicsRoute from '@/app/api/topics/route';
import { signAccessToken } from '@/lib/auth';
import { resetConfigForTests } from '@/lib/config';
import type { SessionUser } from '@/lib/db';
import { createWorkspace, type Workspace } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser, joinWorkspace } from '@/test/fixtures';
import { queueConcurrency, setQueueConcurrency } from './queue';
import { callRoute } from './testing';

/**
 * Settings → API keys (admins create and revoke, the secret is shown once and stored hashed), the
 * API_KEY variable of single-tenant installs, and the app's own pages calling the topic API as a member.
 */

process.env.LOG_LEVEL = 'silent';
const db = setupTestDatabase();

let owner: SessionUser;
let member: SessionUser;
let team: Workspace;

const bearer = async (user: SessionUser) => ({ authorization: `Bearer ${await signAccessToken(user)}` });

beforeAll(async () => {
  owner = await createUser('owner');
  member = await createUser('member');
  team = await createWorkspace(owner, { name: 'Team' });
  await joinWorkspace(owner, team.id, member);
});
afterEach(() => {
  delete process.env.API_KEY;
  delete process.env.API_KEY_WORKSPACE_ID;
  resetConfigForTests();
});

const keysPath = (workspaceId: string) => `/api/workspaces/${workspaceId}/api-keys`;

describe('API keys', () => {
  it('are created by admins with the secret shown once, stored only as a hash, and work as X-Api-Key', async () => {
    const created = await callRoute(keysRoute.POST, 'POST', keysPath(team.id), { headers: await bearer(owner), body: { name: 'CRM sync' }, params: { workspaceId: team.id } });
    expect(created.status).toBe(201);
    const { key, secret } = created.body.data;
    expect(secret).toMatch(/^mvk_[A-Za-z0-9_-]{40}$/);
    expect(key).toMatchObject({ name: 'CRM sync', prefix: secret.slice(0, 12), lastUsedAt: null, revokedAt: null });
    const [stored] = await db().query<{ key_hash: string }>(`select key_hash from public.api_keys where id = $1`, [key.id]);
    expect(stored!.key_hash).not.toContain(secret);

    expect((await callRoute(topicsRoute.GET, 'GET', '/api/topics', { key: secret })).status).toBe(200);
    const listed = await callRoute(keysRoute.GET, 'GET', keysPath(team.id), { headers: await bearer(owner), params: { workspaceId: team.id } });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: key.id, lastUsedAt: expect.any(String) })]);
    expect(JSON.stringify(listed.body.data)).not.toContain(secret.slice(12));
  });

  it('are refused to plain members (403) and to strangers (404)', async () => {
    const asMember = await callRoute(keysRoute.POST, 'POST', keysPath(team.id), { headers: await bearer(member), body: { name: 'mine' }, params: { workspaceId: team.id } });
    expect(asMember.status).toBe(403);
    expect((await callRoute(keysRoute.GET, 'GET', keysPath(team.id), { headers: await bearer(member), params: { workspaceId: team.id } })).status).toBe(403);
    const stranger = await createUser('stranger');
    expect((await callRoute(keysRoute.GET, 'GET', keysPath(team.id), { headers: await bearer(stranger), params: { workspaceId: team.id } })).status).toBe(404);
    expect((await callRoute(keysRoute.GET, 'GET', keysPath(team.id), { params: { workspaceId: team.id } })).status).toBe(401);
  });

  it('stop working the moment they are revoked', async () => {
    const { key, secret } = (await callRoute(keysRoute.POST, 'POST', keysPath(team.id), { headers: await bearer(owner), body: { name: 'temp' }, params: { workspaceId: team.id } })).body.data;
    const revoked = await callRoute(keyRoute.DELETE, 'DELETE', `${keysPath(team.id)}/${key.id}`, { headers: await bearer(owner), params: { workspaceId: team.id, keyId: key.id } });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).toEqual(expect.any(String));
    expect((await callRoute(topicsRoute.GET, 'GET', '/api/topics', { key: secret })).status).toBe(403);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await callRoute(keyRoute.DELETE, 'DELETE', `${keysPath(team.id)}/${unknown}`, { headers: await bearer(owner), params: { workspaceId: team.id, keyId: unknown } })).status).toBe(404);
  });
});

describe('API_KEY (single-tenant installs)', () => {
  it('is a key of the oldest team workspace, or of API_KEY_WORKSPACE_ID', async () => {
    process.env.API_KEY = 'opus-agent-style-secret';
    resetConfigForTests();
    await callRoute(topicsRoute.POST, 'POST', '/api/topics', { key: 'opus-agent-style-secret', body: { name: 'env', system_prompt: 'x' } });
    const [oldestTeam] = await db().query<{ id: string }>(`select id from public.workspaces where not is_personal order by created_at limit 1`);
    const [topic] = await db().query<{ workspace_id: string }>(`select workspace_id from public.topics where name = 'env'`);
    expect(topic!.workspace_id).toBe(oldestTeam!.id);

    const chosen = await createWorkspace(owner, { name: 'Chosen' });
    process.env.API_KEY_WORKSPACE_ID = chosen.id;
    resetConfigForTests();
    await callRoute(topicsRoute.POST, 'POST', '/api/topics', { key: 'opus-agent-style-secret', body: { name: 'env', system_prompt: 'x' } });
    const [again] = await db().query<{ n: number }>(`select count(*)::int as n from public.topics where name = 'env' and workspace_id = $1`, [chosen.id]);
    expect(again!.n).toBe(1);
    expect((await callRoute(topicsRoute.GET, 'GET', '/api/topics', { key: 'opus-agent-style-secreT' })).status).toBe(403);
  });
});

describe('the app’s own pages', () => {
  it('call the topic API as a signed-in member naming the workspace (RLS applies), and get 403 otherwise', async () => {
    const headers = { ...(await bearer(member)), 'x-workspace-id': team.id };
    const topic = await callRoute(topicsRoute.POST, 'POST', '/api/topics', { headers, body: { name: 'from the app', system_prompt: 'x' } });
    expect(topic.status).toBe(201);
    const submitted = await callRoute(requestsRoute.POST, 'POST', '/api/requests', { headers, body: { prompt: 'hello', topic_id: topic.body.data.id } });
    expect(submitted.status).toBe(202);
    const [row] = await db().query<{ submitted_by: string }>(`select submitted_by from public.topic_requests where id = $1`, [submitted.body.data.id]);
    expect(row!.submitted_by).toBe(member.id);
    const topicId = topic.body.data.id;
    expect((await callRoute(topicRoute.DELETE, 'DELETE', `/api/topics/${topicId}`, { headers, params: { id: topicId } })).status).toBe(409);
    const sessionId = submitted.body.data.session_id;
    expect((await callRoute(sessionRoute.DELETE, 'DELETE', `/api/sessions/${sessionId}`, { headers, params: { id: sessionId } })).status).toBe(200);
    const requestId = submitted.body.data.id;
    expect((await callRoute(requestRoute.DELETE, 'DELETE', `/api/requests/${requestId}`, { headers, params: { id: requestId } })).status).toBe(200);
    expect((await callRoute(topicRoute.DELETE, 'DELETE', `/api/topics/${topicId}`, { headers, params: { id: topicId } })).status).toBe(200);

    const stranger = await createUser('outsider');
    const refused = await callRoute(topicsRoute.GET, 'GET', '/api/topics', { headers: { ...(await bearer(stranger)), 'x-workspace-id': team.id } });
    expect(refused.status).toBe(403);
    expect((await callRoute(topicsRoute.GET, 'GET', '/api/topics', { headers: { 'x-workspace-id': team.id } })).status).toBe(403);
  });
});

describe('the queue setting', () => {
  it('is changed by admins only, 1–10, and read by members', async () => {
    const asOwner = { kind: 'user' as const, workspaceId: team.id, user: owner };
    const asMember = { kind: 'user' as const, workspaceId: team.id, user: member };
    expect(await queueConcurrency(asMember)).toEqual({ concurrency: 1, isDefault: true });
    await expect(setQueueConcurrency(asMember, 3)).rejects.toMatchObject({ status: 403 });
    await expect(setQueueConcurrency(asOwner, 11)).rejects.toMatchObject({ status: 422 });
    await setQueueConcurrency(asOwner, 3);
    await setQueueConcurrency(asOwner, 2);
    expect(await queueConcurrency(asMember)).toEqual({ concurrency: 2, isDefault: false });
  });
});
