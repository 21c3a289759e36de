import { describe, expect, it } from 'vitest';
import { POST as signUpRoute } from '@/app/api/auth/sign-up/route';
import { POST as signInRoute } from '@/app/api/auth/sign-in/route';
import { POST as resetConfirmRoute } from '@/app/api/auth/password-reset/confirm/route';
import { GET as meRoute } from '@/app/api/auth/me/route';
import { GET as listWorkspacesRoute, POST as createWorkspaceRoute } from '@/app/api/workspaces/route';
import { DELETE as deleteWorkspaceRoute, GET as getWorkspaceRoute, PATCH as patchWorkspaceRoute } from '@/app/api/workspaces/[workspaceId]/route';
import { POST as inviteRoute } from '@/app/api/workspaces/[workspaceId]/invitations/route';
import { DELETE as removeMemberRoute, PATCH as roleRoute } from '@/app/api/workspaces/[workspaceId]/members/[userId]/route';
import { POST as acceptRoute } from '@/app/api/invitations/accept/route';
import { GET as healthRoute } from '@/app/api/health/route';
import { ACCESS_COOKIE, signAccessToken } from '@/lib/auth';
import { asService, type SessionUser } from '@/lib/db';
import { createWorkspace } from '@/lib/workspaces';
import { setupTestDatabase } from './db';
import { createUser, joinWorkspace } from './fixtures';

setupTestDatabase();

async function call<P>(
  handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>,
  { method = 'GET', body, user, params, raw }: { method?: string; body?: unknown; user?: SessionUser; params?: P; raw?: string } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.1` };
  if (user) headers.cookie = `${ACCESS_COOKIE}=${await signAccessToken(user)}`;
  const req = new Request('http://localhost/api/test', { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
  const res = await handler(req, { params: Promise.resolve(params ?? ({} as P)) });
  return { status: res.status, json: await res.json(), headers: res.headers };
}

const count = async (sql: string, params: unknown[] = []) =>
  (await asService((tx) => tx.query<{ n: number }>(sql, params)))[0]!.n;

describe('foundation API: envelope and precise status codes', () => {
  it('answers in the envelope with a request id', async () => {
    const res = await call(healthRoute);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, error: null, data: { status: 'ok', database: { ok: true } } });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('400 for a body that is not JSON, 422 with field errors for invalid input — and nothing is written', async () => {
    const before = await count('select count(*)::int as n from auth.users');
    const notJson = await call(signUpRoute, { method: 'POST', raw: '{"email":' });
    expect(notJson.status).toBe(400);
    expect(notJson.json).toMatchObject({ success: false, data: null, error: { code: 'bad_request' } });
    const invalid = await call(signUpRoute, { method: 'POST', body: { email: 'not-an-email', password: 'short' } });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.json.error.details.fieldErrors).sort()).toEqual(['email', 'password']);
    expect(await count('select count(*)::int as n from auth.users')).toBe(before);
  });

  it('201 on sign-up with HttpOnly SameSite=Lax cookies; 409 for the same email', async () => {
    const body = { email: 'api-signup@example.test', password: 'long enough password' };
    const created = await call(signUpRoute, { method: 'POST', body });
    expect(created.status).toBe(201);
    const cookies = created.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith('mv_access='))).toMatch(/HttpOnly; SameSite=Lax/);
    expect(cookies.find((c) => c.startsWith('mv_refresh='))).toMatch(/HttpOnly/);
    expect((await call(signUpRoute, { method: 'POST', body })).status).toBe(409);
  });

  it('401 without a session, and 401 for a wrong password', async () => {
    expect((await call(meRoute)).status).toBe(401);
    expect((await call(listWorkspacesRoute)).json.error.code).toBe('unauthorized');
    const user = await createUser('wrongpw');
    expect((await call(signInRoute, { method: 'POST', body: { email: user.email, password: 'nope nope nope' } })).status).toBe(401);
  });

  it('404 for a workspace that is not yours or not a UUID; 403 for what your role may not do', async () => {
    const owner = await createUser('api-owner');
    const member = await createUser('api-member');
    const stranger = await createUser('api-stranger');
    const team = await createWorkspace(owner, { name: 'API Team' });
    await joinWorkspace(owner, team.id, member);
    const params = { workspaceId: team.id };

    expect((await call(getWorkspaceRoute, { user: stranger, params })).status).toBe(404);
    expect((await call(getWorkspaceRoute, { user: stranger, params: { workspaceId: 'nope' } })).status).toBe(404);
    expect((await call(patchWorkspaceRoute, { method: 'PATCH', user: member, params, body: { name: 'x' } })).status).toBe(403);
    expect((await call(inviteRoute, { method: 'POST', user: member, params, body: { email: 'a@example.test' } })).status).toBe(403);
    expect((await call(deleteWorkspaceRoute, { method: 'DELETE', user: member, params })).status).toBe(403);
    expect((await call(roleRoute, { method: 'PATCH', user: owner, params: { ...params, userId: owner.id }, body: { role: 'member' } })).status).toBe(403);
    expect((await call(removeMemberRoute, { method: 'DELETE', user: owner, params: { ...params, userId: owner.id } })).status).toBe(403);
    expect((await call(roleRoute, { method: 'PATCH', user: owner, params: { ...params, userId: member.id }, body: { role: 'owner' } })).status).toBe(422);
  });

  it('422 for invalid workspace settings without creating or changing anything', async () => {
    const owner = await createUser('api-settings');
    const before = await count('select count(*)::int as n from public.workspaces where owner_id = $1', [owner.id]);
    const bad = await call(createWorkspaceRoute, { method: 'POST', user: owner, body: { name: '', timeZone: 'Mars/Olympus', sector: 'spaceport' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.error.details.fieldErrors).sort()).toEqual(['name', 'sector', 'timeZone']);
    expect(await count('select count(*)::int as n from public.workspaces where owner_id = $1', [owner.id])).toBe(before);
    const created = await call(createWorkspaceRoute, { method: 'POST', user: owner, body: { name: 'Valid', timeZone: 'Europe/Rome' } });
    expect(created.status).toBe(201);
    expect(created.json.data).toMatchObject({ name: 'Valid', timeZone: 'Europe/Rome', isPersonal: false });
    const empty = await call(patchWorkspaceRoute, { method: 'PATCH', user: owner, params: { workspaceId: created.json.data.id }, body: {} });
    expect(empty.status).toBe(422);
  });

  it('404 for an unknown invitation, 410 for a used one, 409 for inviting a member twice', async () => {
    const owner = await createUser('api-inv-owner');
    const invitee = await createUser('api-invitee');
    const team = await createWorkspace(owner, { name: 'Invites' });
    const invited = await call(inviteRoute, { method: 'POST', user: owner, params: { workspaceId: team.id }, body: { email: invitee.email } });
    expect(invited.status).toBe(201);
    const token = (invited.json.data.link as string).split('/invite/')[1];
    expect((await call(acceptRoute, { method: 'POST', user: invitee, body: { token: 'x'.repeat(43) } })).status).toBe(404);
    expect((await call(acceptRoute, { method: 'POST', user: invitee, body: { token } })).json.data).toEqual({ workspaceId: team.id });
    expect((await call(acceptRoute, { method: 'POST', user: invitee, body: { token } })).status).toBe(410);
    expect((await call(inviteRoute, { method: 'POST', user: owner, params: { workspaceId: team.id }, body: { email: invitee.email } })).status).toBe(409);
  });

  it('404 for an unknown reset token and 429 with Retry-After when sign-in is hammered', async () => {
    expect((await call(resetConfirmRoute, { method: 'POST', body: { token: 'y'.repeat(43), password: 'another long password' } })).status).toBe(404);
    const user = await createUser('api-hammer');
    let last = { status: 0, headers: new Headers() };
    for (let i = 0; i < 6; i++) last = await call(signInRoute, { method: 'POST', body: { email: user.email, password: 'wrong wrong wrong' } });
    expect(last.status).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
