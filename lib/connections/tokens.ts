import 'server-only';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import * as oauth from 'oauth4webapi';
import { asService } from '@/lib/db';
import { openSecret, requireKeyRing, sealSecret, type KeyRing } from '@/lib/secrets';
import { parseScopes, providerClient, SCOPES, type Provider, type ProviderClient } from './providers';

/** The context a token column's value is sealed with: bound to its row and column. */
export const tokenContext = (column: 'access_token' | 'refresh_token', connectionId: string) => `connection_${column}:${connectionId}`;

/** A token is refreshed this long before it expires, so a call never starts with one about to lapse. */
export const REFRESH_MARGIN_MS = 60_000;
/** How long one refresh may hold a connection's lease; a crashed refresher's lease runs out after it. */
const REFRESH_LEASE_MS = 30_000;

export class ConnectionError extends Error {
  constructor(
    message: string,
    /** `reconnect`: the provider no longer accepts the grant; a person has to connect again. */
    readonly kind: 'not_connected' | 'not_configured' | 'reconnect' | 'provider',
  ) {
    super(message);
  }
}

interface TokenRow {
  id: string;
  workspace_id: string;
  provider: Provider;
  access_token: string;
  refresh_token: string | null;
  access_expires_at: Date | null;
  refresh_lease_until: Date | null;
}

export const clientOptions = (client: ProviderClient) => (client.insecure ? { [oauth.allowInsecureRequests]: true } : {});

export function requireClient(provider: Provider): ProviderClient {
  const client = providerClient(provider);
  if (!client) throw new ConnectionError(`${provider === 'google' ? 'Google' : 'GitHub'} is not configured on this install.`, 'not_configured');
  return client;
}

/** Seals a token response's values for the connection's row. */
export function sealTokens(ring: KeyRing, connectionId: string, tokens: oauth.TokenEndpointResponse, now: Date) {
  return {
    access: sealSecret(tokens.access_token, ring, tokenContext('access_token', connectionId)),
    refresh: tokens.refresh_token ? sealSecret(tokens.refresh_token, ring, tokenContext('refresh_token', connectionId)) : null,
    expiresAt: typeof tokens.expires_in === 'number' ? new Date(now.getTime() + tokens.expires_in * 1000) : null,
  };
}

const readRow = async (workspaceId: string, provider: Provider) =>
  (
    await asService((tx) =>
      tx.query<TokenRow>(
        `select id, workspace_id, provider, access_token, refresh_token, access_expires_at, refresh_lease_until
           from public.connections where workspace_id = $1 and provider = $2`,
        [workspaceId, provider],
      ),
    )
  )[0];

const fresh = (row: TokenRow, now: Date) => !row.access_expires_at || row.access_expires_at.getTime() - REFRESH_MARGIN_MS > now.getTime();

// Callers in this process wait for the one refresh under way instead of taking turns at the lease.
const refreshing = new Map<string, Promise<string>>();

/**
 * A usable access token for the workspace's connection to the provider, refreshed first when it is about
 * to expire (or when `stale`, the token a provider just refused, is still the stored one).
 *
 * Refresh tokens can be single-use (GitHub's rotate; Google may too), so two concurrent refreshes with the
 * same one would leave one caller, or the connection, with a dead token. Refreshing therefore takes the
 * connection's lease first (one conditional update: only the holder spends the refresh token); a caller
 * that finds the lease taken waits for the holder's new token instead. Within a process, concurrent callers
 * share one refresh.
 */
export async function accessToken(workspaceId: string, provider: Provider, { stale }: { stale?: string } = {}): Promise<{ connectionId: string; token: string }> {
  const ring = requireKeyRing();
  const row = await readRow(workspaceId, provider);
  if (!row) throw new ConnectionError(`This workspace has no ${provider === 'google' ? 'Google' : 'GitHub'} connection.`, 'not_connected');
  const current = openSecret(row.access_token, ring, tokenContext('access_token', row.id));
  if (fresh(row, new Date()) && current !== stale) return { connectionId: row.id, token: current };
  let pending = refreshing.get(row.id);
  if (!pending) {
    pending = refresh(ring, row.id, workspaceId, provider, row.access_token).finally(() => refreshing.delete(row.id));
    refreshing.set(row.id, pending);
  }
  return { connectionId: row.id, token: await pending };
}

async function refresh(ring: KeyRing, connectionId: string, workspaceId: string, provider: Provider, staleSealed: string): Promise<string> {
  const client = requireClient(provider);
  const owner = randomUUID();
  for (;;) {
    const now = new Date();
    const [claimed] = await asService((tx) =>
      tx.query<TokenRow>(
        `update public.connections set refresh_lease_owner = $2, refresh_lease_until = $3
          where id = $1 and (refresh_lease_until is null or refresh_lease_until < $4)
          returning id, workspace_id, provider, access_token, refresh_token, access_expires_at, refresh_lease_until`,
        [connectionId, owner, new Date(now.getTime() + REFRESH_LEASE_MS).toISOString(), now.toISOString()],
      ),
    );
    if (claimed) {
      // Someone else refreshed between our read and the claim: their token is the one to use.
      if (claimed.access_token !== staleSealed && fresh(claimed, now)) {
        await release(connectionId, owner);
        return openSecret(claimed.access_token, ring, tokenContext('access_token', connectionId));
      }
      return spend(ring, client, claimed, owner);
    }
    const row = await readRow(workspaceId, provider);
    if (!row || row.id !== connectionId) throw new ConnectionError('The connection was removed.', 'not_connected');
    if (row.access_token !== staleSealed && fresh(row, now)) return openSecret(row.access_token, ring, tokenContext('access_token', connectionId));
    await sleep(100);
  }
}

const release = (connectionId: string, owner: string) =>
  asService((tx) =>
    tx.query(`update public.connections set refresh_lease_owner = null, refresh_lease_until = null where id = $1 and refresh_lease_owner = $2`, [connectionId, owner]),
  );

/** Spends the refresh token under the lease and stores what the provider gave back. */
async function spend(ring: KeyRing, client: ProviderClient, row: TokenRow, owner: string): Promise<string> {
  if (!row.refresh_token) {
    await release(row.id, owner);
    throw new ConnectionError('The access token expired and the provider gave no refresh token: connect the account again.', 'reconnect');
  }
  const refreshToken = openSecret(row.refresh_token, ring, tokenContext('refresh_token', row.id));
  let tokens: oauth.TokenEndpointResponse;
  try {
    const response = await oauth.refreshTokenGrantRequest(client.as, { client_id: client.clientId }, oauth.ClientSecretPost(client.clientSecret), refreshToken, clientOptions(client));
    tokens = await oauth.processRefreshTokenResponse(client.as, { client_id: client.clientId }, response);
  } catch (error) {
    await release(row.id, owner);
    if (error instanceof oauth.ResponseBodyError && error.error === 'invalid_grant') {
      throw new ConnectionError('The provider no longer accepts this connection (revoked or expired): connect the account again.', 'reconnect');
    }
    throw new ConnectionError(`Refreshing the connection failed: ${(error as Error).message}`, 'provider');
  }
  const now = new Date();
  const sealed = sealTokens(ring, row.id, tokens, now);
  await asService((tx) =>
    tx.query(
      `update public.connections
          set access_token = $3, refresh_token = coalesce($4, refresh_token), access_expires_at = $5,
              scopes = $6, refresh_lease_owner = null, refresh_lease_until = null, updated_at = $7
        where id = $1 and refresh_lease_owner = $2`,
      [row.id, owner, sealed.access, sealed.refresh, sealed.expiresAt?.toISOString() ?? null, parseScopes(tokens.scope, SCOPES[row.provider]), now.toISOString()],
    ),
  );
  return tokens.access_token;
}

/**
 * Calls the provider's API with the workspace's connection: a token refreshed before it expires, and, when
 * the provider refuses one it had not said was expiring (revoked early, clock skew), one refresh and one
 * retry.
 */
export async function withConnection(workspaceId: string, provider: Provider, call: (token: string, apiUrl: string) => Promise<Response>): Promise<Response> {
  const client = requireClient(provider);
  const first = await accessToken(workspaceId, provider);
  const response = await call(first.token, client.apiUrl);
  if (response.status !== 401) return response;
  const again = await accessToken(workspaceId, provider, { stale: first.token });
  return call(again.token, client.apiUrl);
}
