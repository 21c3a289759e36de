import { beforeAll, describe, expect, it } from 'vitest';
import * as dailyBriefRoute from '@/app/api/home/daily-brief/route';
import * as prefsRoute from '@/app/api/home/prefs/route';
import * as decisionsRoute from '@/app/api/workspaces/[workspaceId]/decisions/route';
import * as insightsRoute from '@/app/api/workspaces/[workspaceId]/insights/route';
import * as outboxRoute from '@/app/api/workspaces/[workspaceId]/outbox/route';
import * as appointmentsRoute from '@/app/api/workspaces/[workspaceId]/appointments/route';
import { ACCESS_COOKIE, signAccessToken } from '@/lib/auth';
import type { SessionUser } from '@/lib/db';
import { createWorkspace, type Workspace } from '@/lib/workspaces';
import { setupTestDatabase } from './db';
import { createUser, joinWorkspace } from './fixtures';

/** What every route does with who is calling and what they send, before any route's own logic runs. */

setupTestDatabase();

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
