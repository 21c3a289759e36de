// Test support only (imported by *.test.ts): a stand-in for the parts of Supabase Auth (GoTrue) that
// @supabase/supabase-js and @supabase/ssr call for the app, so the real clients can be driven without
// a Supabase project. It speaks GoTrue's wire protocol for these endpoints, as read in supabase/auth
// (internal/api/token.go, auth.go, logout.go, jwks.go, errors.go):
// - POST /auth/v1/token?grant_type=password | refresh_token: an AccessTokenResponse; refresh tokens
//   rotate, and presenting a spent one ends its session (no reuse interval here);
// - GET /auth/v1/user: the user of a valid Bearer access token whose session still exists;
// - POST /auth/v1/logout?scope=global | local | others: ends sessions, 204;
// - GET /auth/v1/.well-known/jwks.json: the public signing key (none for HS256, as GoTrue hides HMAC keys).
// Access tokens carry GoTrue's claims (iss, sub, aud, exp, iat, email, phone, app_metadata,
// user_metadata, role, aal, amr, session_id, is_anonymous), signed ES256 with a `kid` (asymmetric signing
// keys) or HS256 without one (a project on the legacy JWT secret). Errors come as the 2024-01-01 API
// version sends them to these clients: `{ code, message }` with X-Supabase-Api-Version, 401 without the
// `apikey` header the API gateway wants. It knows nothing else of Supabase Auth.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK, type CryptoKey } from 'jose';

export interface StandInUser {
  id: string;
  email: string;
  password: string;
}

interface Session {
  userId: string;
  createdAt: number;
}

const API_VERSION = '2024-01-01';

export async function startSupabaseAuthStandIn({ anonKey, signing, accessTokenSeconds = 3600 }: { anonKey: string; signing: 'ES256' | 'HS256'; accessTokenSeconds?: number }) {
  const users = new Map<string, StandInUser>();
  const sessions = new Map<string, Session>();
  const refreshTokens = new Map<string, { sessionId: string; spent: boolean }>();
  const grants: string[] = [];

  const kid = randomUUID();
  const hmacSecret = new TextEncoder().encode(randomBytes(32).toString('base64'));
  const pair = signing === 'ES256' ? await generateKeyPair('ES256', { extractable: true }) : null;
  const jwks: JWK[] = pair ? [{ ...(await exportJWK(pair.publicKey)), kid, alg: 'ES256', use: 'sig', key_ops: ['verify'], ext: true }] : [];
  const signingKey: CryptoKey | Uint8Array = pair ? pair.privateKey : hmacSecret;
  const verifyingKey: CryptoKey | Uint8Array = pair ? pair.publicKey : hmacSecret;

  let url = '';
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  const userJson = (user: StandInUser) => ({
    id: user.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: user.email,
    email_confirmed_at: '2030-01-01T00:00:00Z',
    phone: '',
    confirmed_at: '2030-01-01T00:00:00Z',
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: {},
    identities: [],
    created_at: '2030-01-01T00:00:00Z',
    updated_at: '2030-01-01T00:00:00Z',
    is_anonymous: false,
  });

  async function accessToken(user: StandInUser, sessionId: string) {
    const iat = nowSeconds();
    return new SignJWT({
      email: user.email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: {},
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: sessions.get(sessionId)!.createdAt }],
      session_id: sessionId,
      is_anonymous: false,
    })
      .setProtectedHeader(signing === 'ES256' ? { alg: 'ES256', kid, typ: 'JWT' } : { alg: 'HS256', typ: 'JWT' })
      .setIssuer(`${url}/auth/v1`)
      .setSubject(user.id)
      .setAudience('authenticated')
      .setIssuedAt(iat)
      .setExpirationTime(iat + accessTokenSeconds)
      .sign(signingKey);
  }

  async function tokenResponse(user: StandInUser, sessionId: string) {
    const refreshToken = randomBytes(9).toString('base64url');
    refreshTokens.set(refreshToken, { sessionId, spent: false });
    return {
      access_token: await accessToken(user, sessionId),
      token_type: 'bearer',
      expires_in: accessTokenSeconds,
      expires_at: nowSeconds() + accessTokenSeconds,
      refresh_token: refreshToken,
      user: userJson(user),
    };
  }

  class AuthError extends Error {
    constructor(
      readonly status: number,
      readonly code: string,
      message: string,
    ) {
      super(message);
    }
  }

  /** GoTrue's requireAuthentication: a Bearer token, a valid signature and expiry, its user and its session. */
  async function authenticated(req: IncomingMessage): Promise<{ user: StandInUser; sessionId: string }> {
    const bearer = req.headers.authorization?.match(/^Bearer (\S+)$/i)?.[1];
    if (!bearer) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
    let claims;
    try {
      ({ payload: claims } = await jwtVerify(bearer, verifyingKey, { algorithms: [signing] }));
    } catch (error) {
      throw new AuthError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${(error as Error).message}`);
    }
    const user = [...users.values()].find((u) => u.id === claims.sub);
    if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    const sessionId = String(claims.session_id ?? '');
    if (!sessions.has(sessionId)) throw new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    return { user, sessionId };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) {
    const { pathname, searchParams } = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && pathname === '/auth/v1/.well-known/jwks.json') return send(res, 200, { keys: jwks });
    if (req.method === 'POST' && pathname === '/auth/v1/token') {
      const grant = searchParams.get('grant_type') ?? '';
      grants.push(grant);
      if (grant === 'password') {
        const user = users.get(String(body.email ?? '').toLowerCase());
        if (!user || user.password !== body.password) throw new AuthError(400, 'invalid_credentials', 'Invalid login credentials');
        const sessionId = randomUUID();
        sessions.set(sessionId, { userId: user.id, createdAt: nowSeconds() });
        return send(res, 200, await tokenResponse(user, sessionId));
      }
      if (grant === 'refresh_token') {
        const presented = refreshTokens.get(String(body.refresh_token ?? ''));
        if (!presented) throw new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
        const session = sessions.get(presented.sessionId);
        if (!session) throw new AuthError(400, 'session_not_found', 'Invalid Refresh Token: No Valid Session Found');
        if (presented.spent) {
          sessions.delete(presented.sessionId);
          throw new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
        }
        presented.spent = true;
        const user = [...users.values()].find((u) => u.id === session.userId)!;
        return send(res, 200, await tokenResponse(user, presented.sessionId));
      }
      throw new AuthError(400, 'invalid_credentials', 'unsupported_grant_type');
    }
    if (req.method === 'GET' && pathname === '/auth/v1/user') return send(res, 200, userJson((await authenticated(req)).user));
    if (req.method === 'POST' && pathname === '/auth/v1/logout') {
      const { user, sessionId } = await authenticated(req);
      const scope = searchParams.get('scope') || 'global';
      for (const [id, session] of sessions) {
        const mine = session.userId === user.id;
        if ((scope === 'global' && mine) || (scope === 'local' && id === sessionId) || (scope === 'others' && mine && id !== sessionId)) sessions.delete(id);
      }
      res.writeHead(204).end();
      return;
    }
    throw new AuthError(404, 'not_found', 'Not found');
  }

  function send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json', 'x-supabase-api-version': API_VERSION }).end(JSON.stringify(body));
  }

  const http = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      // The API gateway in front of Auth turns away requests without the project's key.
      if (req.headers.apikey !== anonKey) return void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Invalid API key' }));
      handle(req, res, raw ? (JSON.parse(raw) as Record<string, unknown>) : {}).catch((error: unknown) => {
        if (!(error instanceof AuthError)) throw error;
        res.writeHead(error.status, { 'content-type': 'application/json', 'x-supabase-api-version': API_VERSION, 'x-sb-error-code': error.code });
        res.end(JSON.stringify({ code: error.code, message: error.message }));
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  return {
    url,
    /** Every grant asked of /token, in order. */
    grants,
    /** A person Supabase Auth knows: in a Supabase project, the same auth.users row the database sees. */
    addUser: (user: StandInUser) => void users.set(user.email.toLowerCase(), user),
    /** Sessions still alive (sign-out and refresh-token reuse end them). */
    liveSessions: () => sessions.size,
    /** A token signed like this server's but with another key: what a forger could make. */
    forge: async (claims: { sub: string; email: string }) => {
      const other = signing === 'ES256' ? (await generateKeyPair('ES256')).privateKey : new TextEncoder().encode(randomBytes(32).toString('base64'));
      const iat = nowSeconds();
      return new SignJWT({ ...claims, role: 'authenticated', session_id: [...sessions.keys()][0] ?? randomUUID() })
        .setProtectedHeader(signing === 'ES256' ? { alg: 'ES256', kid, typ: 'JWT' } : { alg: 'HS256', typ: 'JWT' })
        .setIssuer(`${url}/auth/v1`)
        .setAudience('authenticated')
        .setIssuedAt(iat)
        .setExpirationTime(iat + accessTokenSeconds)
        .sign(other);
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

export type SupabaseAuthStandIn = Awaited<ReturnType<typeof startSupabaseAuthStandIn>>;
