import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Google's and GitHub's OAuth and API endpoints on loopback, as lib/connections calls them: the
 * authorization endpoints check the client, the redirect URI and a S256 code challenge and redirect back
 * with a code; the token endpoints check the client secret and the PKCE verifier and issue access tokens
 * with an expiry and single-use refresh tokens (a refresh token spent twice is refused, as a rotating
 * provider does); the revocation endpoints end a grant; the API endpoints check the bearer token and
 * record what they were sent (Gmail's raw RFC 822 messages, calendar events, issues, comments).
 */

type ProviderName = 'google' | 'github';

interface Grant {
  provider: ProviderName;
  revoked: boolean;
}

export interface StandIn {
  url: string;
  clients: Record<ProviderName, { id: string; secret: string }>;
  /** The one redirect URI each client registered (the app's callback). */
  redirectUris: Record<ProviderName, string>;
  /** Seconds of life of the next access tokens issued. */
  expiresIn: number;
  /** The next authorization answers `error=access_denied` (the person refused at the consent screen). */
  deny: boolean;
  /** Token requests by grant type. */
  tokenRequests: Array<{ provider: ProviderName; grantType: string }>;
  revocations: Array<{ provider: ProviderName; token: string }>;
  drafts: Array<{ raw: string; token: string }>;
  sent: Array<{ raw: string }>;
  events: Map<string, Record<string, unknown>>;
  issues: Array<{ repo: string; number: number; title: string; body: string }>;
  comments: Array<{ repo: string; number: number; body: string }>;
  /** The grant of each token issued, for checking revocations. */
  grantOf(token: string): Grant | undefined;
  /** Every access token issued so far stops working, as when their hour has passed. */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');

export async function startProviderStandIn(listenOn = 0): Promise<StandIn> {
  const codes = new Map<string, { provider: ProviderName; clientId: string; redirectUri: string; challenge: string; scope: string; grant: Grant }>();
  const access = new Map<string, { grant: Grant; expiresAt: number }>();
  const refresh = new Map<string, { grant: Grant; used: boolean; scope: string }>();
  let nextIssue = 1;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        send(res, 500, { error: String(error) });
      }
    });
  });

  const send = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };

  const clientOf = (req: IncomingMessage, form: URLSearchParams): { id: string; secret: string } | null => {
    const basic = req.headers.authorization?.match(/^Basic (.+)$/);
    if (basic) {
      const [id, secret] = Buffer.from(basic[1]!, 'base64').toString().split(':').map(decodeURIComponent);
      return { id: id!, secret: secret ?? '' };
    }
    const id = form.get('client_id');
    return id ? { id, secret: form.get('client_secret') ?? '' } : null;
  };

  const issue = (provider: ProviderName, grant: Grant, scope: string) => {
    const accessToken = `${provider}-at-${b64url(randomBytes(12))}`;
    const refreshToken = `${provider}-rt-${b64url(randomBytes(12))}`;
    access.set(accessToken, { grant, expiresAt: Date.now() + standIn.expiresIn * 1000 });
    refresh.set(refreshToken, { grant, used: false, scope });
    return {
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: standIn.expiresIn,
      token_type: provider === 'github' ? 'bearer' : 'Bearer',
      scope: provider === 'github' ? scope.split(' ').join(',') : scope,
    };
  };

  const bearer = (req: IncomingMessage) => {
    const token = req.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
    const entry = token ? access.get(token) : undefined;
    return entry && !entry.grant.revoked && entry.expiresAt > Date.now() ? token! : null;
  };

  function handle(req: IncomingMessage, res: ServerResponse, body: string) {
    const url = new URL(req.url!, 'http://stand-in');
    const path = url.pathname;

    // Authorization ------------------------------------------------------------------------------------
    const authorizeFor: ProviderName | undefined = path === '/o/oauth2/v2/auth' ? 'google' : path === '/login/oauth/authorize' ? 'github' : undefined;
    if (req.method === 'GET' && authorizeFor) {
      const q = url.searchParams;
      if (q.get('client_id') !== standIn.clients[authorizeFor].id) return send(res, 400, { error: 'invalid_client' });
      if (q.get('redirect_uri') !== standIn.redirectUris[authorizeFor]) return send(res, 400, { error: 'redirect_uri_mismatch' });
      if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
        return send(res, 400, { error: 'invalid_request', error_description: 'PKCE S256 required' });
      }
      const back = new URL(q.get('redirect_uri')!);
      if (q.get('state')) back.searchParams.set('state', q.get('state')!);
      if (standIn.deny) {
        standIn.deny = false;
        back.searchParams.set('error', 'access_denied');
      } else {
        const code = b64url(randomBytes(16));
        codes.set(code, {
          provider: authorizeFor,
          clientId: q.get('client_id')!,
          redirectUri: q.get('redirect_uri')!,
          challenge: q.get('code_challenge')!,
          scope: q.get('scope') ?? '',
          grant: { provider: authorizeFor, revoked: false },
        });
        back.searchParams.set('code', code);
      }
      res.writeHead(302, { location: back.href });
      return res.end();
    }

    // Tokens -------------------------------------------------------------------------------------------
    const tokenFor: ProviderName | undefined = path === '/token' ? 'google' : path === '/login/oauth/access_token' ? 'github' : undefined;
    if (req.method === 'POST' && tokenFor) {
      const form = new URLSearchParams(body);
      const client = clientOf(req, form);
      const registered = standIn.clients[tokenFor];
      if (!client || client.id !== registered.id || client.secret !== registered.secret) return send(res, 401, { error: 'invalid_client' });
      const grantType = form.get('grant_type') ?? '';
      standIn.tokenRequests.push({ provider: tokenFor, grantType });
      if (grantType === 'authorization_code') {
        const code = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!code || code.provider !== tokenFor || code.redirectUri !== form.get('redirect_uri')) return send(res, 400, { error: 'invalid_grant' });
        const verifier = form.get('code_verifier') ?? '';
        if (b64url(createHash('sha256').update(verifier).digest()) !== code.challenge) {
          return send(res, 400, { error: 'invalid_grant', error_description: 'code_verifier does not match the challenge' });
        }
        return send(res, 200, issue(tokenFor, code.grant, code.scope));
      }
      if (grantType === 'refresh_token') {
        const entry = refresh.get(form.get('refresh_token') ?? '');
        if (!entry || entry.used || entry.grant.revoked) return send(res, 400, { error: 'invalid_grant' });
        entry.used = true;
        return send(res, 200, issue(tokenFor, entry.grant, entry.scope));
      }
      return send(res, 400, { error: 'unsupported_grant_type' });
    }

    // Revocation ---------------------------------------------------------------------------------------
    if (req.method === 'POST' && path === '/revoke') {
      const form = new URLSearchParams(body);
      const client = clientOf(req, form);
      if (!client || client.id !== standIn.clients.google.id) return send(res, 401, { error: 'invalid_client' });
      const token = form.get('token') ?? '';
      const grant = access.get(token)?.grant ?? refresh.get(token)?.grant;
      if (!grant) return send(res, 400, { error: 'invalid_token' });
      grant.revoked = true;
      standIn.revocations.push({ provider: 'google', token });
      return send(res, 200, {});
    }
    const githubGrant = path.match(/^\/applications\/([^/]+)\/grant$/);
    if (req.method === 'DELETE' && githubGrant) {
      const client = clientOf(req, new URLSearchParams());
      if (!client || client.id !== decodeURIComponent(githubGrant[1]!) || client.secret !== standIn.clients.github.secret) return send(res, 401, { message: 'Requires authentication' });
      const token = (JSON.parse(body || '{}') as { access_token?: string }).access_token ?? '';
      const grant = access.get(token)?.grant;
      if (!grant) return send(res, 404, { message: 'Not Found' });
      grant.revoked = true;
      standIn.revocations.push({ provider: 'github', token });
      return send(res, 204);
    }

    // APIs ---------------------------------------------------------------------------------------------
    const token = bearer(req);
    if (!token) return send(res, 401, { error: { code: 401, message: 'Invalid Credentials' } });
    const json = () => JSON.parse(body || '{}') as Record<string, unknown>;

    if (req.method === 'GET' && path === '/gmail/v1/users/me/profile') return send(res, 200, { emailAddress: 'owner@gmail.test' });
    if (req.method === 'POST' && path === '/gmail/v1/users/me/drafts') {
      const raw = (json().message as { raw?: string } | undefined)?.raw;
      if (!raw || !/^[A-Za-z0-9_-]+$/.test(raw)) return send(res, 400, { error: { message: 'raw must be base64url' } });
      standIn.drafts.push({ raw, token });
      return send(res, 200, { id: `r-${standIn.drafts.length}`, message: { id: `m-${standIn.drafts.length}` } });
    }
    if (req.method === 'POST' && path === '/gmail/v1/users/me/messages/send') {
      const raw = json().raw as string | undefined;
      if (!raw || !/^[A-Za-z0-9_-]+$/.test(raw)) return send(res, 400, { error: { message: 'raw must be base64url' } });
      standIn.sent.push({ raw });
      return send(res, 200, { id: `s-${standIn.sent.length}`, labelIds: ['SENT'] });
    }
    const events = '/calendar/v3/calendars/primary/events';
    if (req.method === 'POST' && path === events) {
      const event = json();
      const id = (event.id as string | undefined) ?? b64url(randomBytes(8));
      if (standIn.events.has(id)) return send(res, 409, { error: { code: 409, message: 'The requested identifier already exists.' } });
      standIn.events.set(id, { ...event, id });
      return send(res, 200, { ...event, id, htmlLink: `https://calendar.test/event?eid=${id}` });
    }
    const eventPath = path.startsWith(`${events}/`) ? decodeURIComponent(path.slice(events.length + 1)) : undefined;
    if (req.method === 'PATCH' && eventPath) {
      const existing = standIn.events.get(eventPath);
      if (!existing) return send(res, 404, { error: { code: 404, message: 'Not Found' } });
      const updated = { ...existing, ...json(), id: eventPath };
      standIn.events.set(eventPath, updated);
      return send(res, 200, { ...updated, htmlLink: `https://calendar.test/event?eid=${eventPath}` });
    }
    if (req.method === 'GET' && path === events) {
      const from = Date.parse(url.searchParams.get('timeMin') ?? '');
      const to = Date.parse(url.searchParams.get('timeMax') ?? '');
      const items = [...standIn.events.values()].filter((e) => {
        const start = Date.parse((e.start as { dateTime: string }).dateTime);
        const end = Date.parse((e.end as { dateTime: string }).dateTime);
        return start < to && end > from;
      });
      return send(res, 200, { kind: 'calendar#events', items });
    }

    if (req.method === 'GET' && path === '/user') return send(res, 200, { login: 'octo-owner', id: 1 });
    const repoIssues = path.match(/^\/repos\/([^/]+)\/([^/]+)\/issues$/);
    if (repoIssues) {
      const repo = `${repoIssues[1]}/${repoIssues[2]}`;
      if (req.method === 'GET') {
        return send(res, 200, standIn.issues.filter((i) => i.repo === repo).map((i) => ({ number: i.number, title: i.title, state: 'open', html_url: `https://github.test/${repo}/issues/${i.number}` })));
      }
      const { title, body: text } = json() as { title?: string; body?: string };
      if (!title) return send(res, 422, { message: 'Validation Failed' });
      const created = { repo, number: nextIssue++, title, body: text ?? '' };
      standIn.issues.push(created);
      return send(res, 201, { number: created.number, html_url: `https://github.test/${repo}/issues/${created.number}` });
    }
    const comments = path.match(/^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/);
    if (req.method === 'POST' && comments) {
      const repo = `${comments[1]}/${comments[2]}`;
      const comment = { repo, number: Number(comments[3]), body: String(json().body ?? '') };
      standIn.comments.push(comment);
      return send(res, 201, { id: standIn.comments.length, html_url: `https://github.test/${repo}/issues/${comment.number}#issuecomment-${standIn.comments.length}` });
    }
    return send(res, 404, { message: 'Not Found' });
  }

  await new Promise<void>((resolve) => server.listen(listenOn, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const standIn: StandIn = {
    url: `http://127.0.0.1:${port}`,
    clients: { google: { id: 'google-client.apps.test', secret: 'google-secret' }, github: { id: 'Iv1.githubclient', secret: 'github-secret' } },
    redirectUris: { google: '', github: '' },
    expiresIn: 3600,
    deny: false,
    tokenRequests: [],
    revocations: [],
    drafts: [],
    sent: [],
    events: new Map(),
    issues: [],
    comments: [],
    grantOf: (token) => access.get(token)?.grant ?? refresh.get(token)?.grant,
    expireAccessTokens: () => {
      for (const entry of access.values()) entry.expiresAt = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return standIn;
}

/** The environment that points the app at the stand-in as both providers. */
export function standInEnv(standIn: StandIn): Record<string, string> {
  return {
    GOOGLE_CLIENT_ID: standIn.clients.google.id,
    GOOGLE_CLIENT_SECRET: standIn.clients.google.secret,
    GITHUB_CLIENT_ID: standIn.clients.github.id,
    GITHUB_CLIENT_SECRET: standIn.clients.github.secret,
    GOOGLE_ACCOUNTS_URL: standIn.url,
    GOOGLE_OAUTH_URL: standIn.url,
    GOOGLE_API_URL: standIn.url,
    GITHUB_URL: standIn.url,
    GITHUB_API_URL: standIn.url,
  };
}
