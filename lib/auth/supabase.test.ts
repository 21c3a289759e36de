import { createServerClient } from '@supabase/ssr';
import { NextRequest } from 'next/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as meRoute } from '@/app/api/auth/me/route';
import { resetConfigForTests } from '@/lib/config';
import { withUser, type SessionUser } from '@/lib/db';
import { createWorkspace, listWorkspaces } from '@/lib/workspaces';
import { proxy } from '@/proxy';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { ACCESS_COOKIE, getRequestUser, getSessionUser, signAccessToken } from '.';
import { startSupabaseAuthStandIn, type SupabaseAuthStandIn } from './test-supabase-auth-server';

/**
 * Supabase Auth mode (NEXT_PUBLIC_SUPABASE_URL and _ANON_KEY set): sessions come from Supabase Auth
 * through @supabase/ssr's cookies, read by lib/auth/session.ts and lib/auth/supabase.ts and refreshed by
 * proxy.ts. Against a stand-in of GoTrue's endpoints (./test-supabase-auth-server.ts) driven by the real
 * supabase-js and @supabase/ssr clients, once with asymmetric signing keys (ES256, verified locally
 * against the JWKS) and once with the legacy JWT secret (HS256, verified by asking /user). Not run
 * against a live Supabase project.
 */

setupTestDatabase();
const ANON_KEY = 'anon-key-for-tests';
const HOUR = 3600 * 1000;
const PASSWORD = 'correct horse battery';
const saved = { ...process.env };

// Server components read the request's cookies through next/headers; here, the cookies of the test's browser.
const requestCookies = vi.hoisted(() => ({ header: '' }));
vi.mock('next/headers', () => ({
  cookies: async () => ({ get: () => undefined }),
  headers: async () => new Headers(requestCookies.header ? { cookie: requestCookies.header } : {}),
}));

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  requestCookies.header = '';
});
afterAll(() => {
  process.env = saved;
  resetConfigForTests();
});

/** A browser's cookie jar for the app's origin: what @supabase/ssr sets, it sends back. */
function browser() {
  const jar = new Map<string, string>();
  return {
    jar,
    header: () => [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
    set: (name: string, value: string, options: { maxAge?: number }) => (options.maxAge === 0 ? jar.delete(name) : jar.set(name, value)),
  };
}

const request = (headers: Record<string, string> = {}) => new Request('http://localhost/api/auth/me', { headers });
const me = async (headers: Record<string, string> = {}) => {
  const res = await meRoute(request(headers));
  return { status: res.status, body: await res.json() };
};

describe.each(['ES256', 'HS256'] as const)('Supabase Auth mode, tokens signed %s', (signing) => {
  let auth: SupabaseAuthStandIn;
  let ada: SessionUser;
  let bob: SessionUser;

  beforeAll(async () => {
    auth = await startSupabaseAuthStandIn({ anonKey: ANON_KEY, signing });
    // People are created as the embedded mode does (the auth.users trigger gives each a personal
    // workspace); Supabase Auth knows them by the same id, as it would own the same auth.users rows.
    ada = await createUser('ada');
    bob = await createUser('bob');
    await createWorkspace(ada, { name: 'Ada team' });
    await createWorkspace(bob, { name: 'Bob team' });
    for (const user of [ada, bob]) auth.addUser({ ...user, password: PASSWORD });
    Object.assign(process.env, { NEXT_PUBLIC_SUPABASE_URL: auth.url, NEXT_PUBLIC_SUPABASE_ANON_KEY: ANON_KEY });
    resetConfigForTests();
  });
  afterAll(async () => {
    await auth.close();
  });

  /** Signs in the way a Supabase-mode page does, through @supabase/ssr, which writes the session cookies. */
  async function signIn(user: SessionUser) {
    const cookies = browser();
    const client = createServerClient(auth.url, ANON_KEY, {
      cookies: {
        getAll: () => [...cookies.jar].map(([name, value]) => ({ name, value })),
        setAll: (list) => list.forEach(({ name, value, options }) => cookies.set(name, value, options)),
      },
    });
    const { data, error } = await client.auth.signInWithPassword({ email: user.email, password: PASSWORD });
    if (error || !data.session) throw error ?? new Error('no session');
    return { cookies, client, accessToken: data.session.access_token };
  }

  it('gives RLS the same auth.uid() as the embedded mode: a session reads only its own workspaces', async () => {
    const { cookies, accessToken } = await signIn(ada);
    expect(cookies.header()).toMatch(/^sb-127-auth-token=base64-/);

    const user = await getRequestUser(request({ cookie: cookies.header() }));
    expect(user).toEqual({ id: ada.id, email: ada.email });
    const [row] = await withUser(user!, (tx) =>
      tx.query<{ uid: string; names: string[] }>(`select auth.uid()::text as uid, array(select name from public.workspaces order by name) as names`),
    );
    expect(row).toEqual({ uid: ada.id, names: ['Ada team', 'Personal'] });
    // `ada` as the embedded mode has her (signed up here): the same person, the same rows.
    expect(await listWorkspaces(user!)).toEqual(await listWorkspaces(ada));

    const viaCookie = await me({ cookie: cookies.header() });
    expect(viaCookie.status).toBe(200);
    expect(viaCookie.body.data.user).toEqual({ id: ada.id, email: ada.email });
    expect(viaCookie.body.data.workspaces.map((w: { name: string }) => w.name).sort()).toEqual(['Ada team', 'Personal']);
    expect((await me({ authorization: `Bearer ${accessToken}` })).body.data.user.id).toBe(ada.id);

    requestCookies.header = cookies.header();
    expect(await getSessionUser()).toEqual({ id: ada.id, email: ada.email });
  });

  it('answers 401 without a session, and for a forged, an expired or an embedded-mode token', async () => {
    expect((await me()).status).toBe(401);
    requestCookies.header = '';
    expect(await getSessionUser()).toBeNull();

    const forged = await auth.forge({ sub: ada.id, email: ada.email });
    expect((await me({ authorization: `Bearer ${forged}` })).status).toBe(401);
    // Bob's own cookie with Ada's forged token put in: the session cookie is read, never trusted.
    const { cookies: bobs } = await signIn(bob);
    const [name, value] = [...bobs.jar][0]!;
    const session = JSON.parse(Buffer.from(value.slice('base64-'.length), 'base64url').toString());
    const tampered = `base64-${Buffer.from(JSON.stringify({ ...session, access_token: forged, user: { ...session.user, id: ada.id, email: ada.email } })).toString('base64url')}`;
    expect((await me({ cookie: `${name}=${tampered}` })).status).toBe(401);
    expect((await me({ authorization: 'Bearer not-a-jwt' })).status).toBe(401);
    // The embedded mode's own session token means nothing to Supabase Auth.
    const embedded = await signAccessToken(ada);
    expect((await me({ authorization: `Bearer ${embedded}` })).status).toBe(401);
    expect((await me({ cookie: `${ACCESS_COOKIE}=${embedded}` })).status).toBe(401);

    const { accessToken } = await signIn(bob);
    expect((await me({ authorization: `Bearer ${accessToken}` })).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * HOUR);
    const expired = await me({ authorization: `Bearer ${accessToken}` });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('unauthorized');
  });

  it('refreshes an expired session in the proxy and hands the new one to the same request', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { cookies } = await signIn(ada);
    const before = cookies.header();
    vi.setSystemTime(Date.now() + 2 * HOUR);
    const refreshesBefore = auth.grants.filter((g) => g === 'refresh_token').length;

    const response = await proxy(new NextRequest('http://localhost/w/any', { headers: { cookie: before } }));
    expect(auth.grants.filter((g) => g === 'refresh_token').length).toBe(refreshesBefore + 1);
    const written = response.cookies.getAll().filter((c) => c.name.startsWith('sb-127-auth-token'));
    expect(written.length).toBeGreaterThan(0);
    for (const cookie of written) cookies.set(cookie.name, cookie.value, { maxAge: cookie.maxAge });
    expect(cookies.header()).not.toBe(before);

    // The page or route behind the proxy sees the refreshed cookies on this very request…
    const forwarded = response.headers.get('x-middleware-request-cookie')!;
    expect(forwarded).toBe(cookies.header());
    expect(await getRequestUser(request({ cookie: forwarded }))).toEqual({ id: ada.id, email: ada.email });
    // …and the browser keeps them for the next one.
    expect((await me({ cookie: cookies.header() })).status).toBe(200);
  });

  it('signs out: the cookies are cleared, and a copy of them is refused once its access token expires', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { cookies, client } = await signIn(ada);
    const stale = cookies.header();
    const { error } = await client.auth.signOut();
    expect(error).toBeNull();
    expect([...cookies.jar.keys()]).toEqual([]);
    expect((await me({ cookie: cookies.header() })).status).toBe(401);

    vi.setSystemTime(Date.now() + 2 * HOUR);
    // supabase-js warns of the refused refresh on its way to answering "no session".
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await getRequestUser(request({ cookie: stale }))).toBeNull();
    const response = await proxy(new NextRequest('http://localhost/w/any', { headers: { cookie: stale } }));
    expect(response.cookies.getAll().filter((c) => c.name.startsWith('sb-127-auth-token')).map((c) => c.value)).toEqual(['']);
  });

  // With asymmetric keys getClaims() verifies the signature locally, so an access token stays valid until
  // it expires (an hour by default) even after sign-out; with the legacy secret it asks Auth every time.
  it.runIf(signing === 'HS256')('refuses a signed-out access token at once with the legacy JWT secret', async () => {
    const { client, accessToken } = await signIn(bob);
    expect((await me({ authorization: `Bearer ${accessToken}` })).status).toBe(200);
    await client.auth.signOut();
    expect((await me({ authorization: `Bearer ${accessToken}` })).status).toBe(401);
  });
});
