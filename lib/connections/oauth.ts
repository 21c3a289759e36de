import 'server-only';
import { createHash, randomUUID } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { ApiError, isUuid, managersOnly, notFound } from '@/lib/api';
import { asService, elevated, withUser, type SessionUser, type Tx } from '@/lib/db';
import { log } from '@/lib/log';
import { openSecret, requireKeyRing, sealSecret, SecretsUnavailableError } from '@/lib/secrets';
import { accountName, revokeAtProvider } from './api';
import { PROVIDER_SETTINGS, PROVIDERS, parseScopes, providerClient, SCOPES, type Provider } from './providers';
import { clientOptions, sealTokens, tokenContext } from './tokens';

/** How long a person has to finish at the provider's consent screen. */
export const STATE_TTL_MS = 10 * 60_000;

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');
const stateContext = (stateHash: string) => `oauth_state:${stateHash}`;

/** A provider as Settings → Connections shows it: configured or not, and the connection if there is one. */
export interface ConnectionView {
  provider: Provider;
  configured: boolean;
  /** The settings to add when it is not configured. */
  missingSettings: string[];
  connection: { id: string; account: string; scopes: string[]; connectedBy: string | null; createdAt: Date; accessExpiresAt: Date | null } | null;
}

/** The install's key ring; without one (Postgres without SECRETS_KEYS) nothing can be stored, and the person is told why. */
function keyRing() {
  try {
    return requireKeyRing();
  } catch (error) {
    if (error instanceof SecretsUnavailableError) throw new ApiError('conflict', 'api.connections.noSecretsKey');
    throw error;
  }
}

async function requireManagerOf(tx: Tx, user: SessionUser, workspaceId: string) {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  const [row] = await tx.query<{ role: string }>(`select role from public.workspace_members where workspace_id = $1 and user_id = $2`, [workspaceId, user.id]);
  if (!row) throw notFound('workspace');
  if (row.role === 'member') throw managersOnly('manageConnections');
}

/** Every provider, and the workspace's connection to each (members see them; tokens are never read). */
export async function listConnections(user: SessionUser, workspaceId: string): Promise<ConnectionView[]> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  const rows = await withUser(user, async (tx) => {
    const [member] = await tx.query(`select 1 from public.workspace_members where workspace_id = $1 and user_id = $2`, [workspaceId, user.id]);
    if (!member) throw notFound('workspace');
    return tx.query<{ id: string; provider: Provider; account: string; scopes: string[]; connected_by: string | null; created_at: Date; access_expires_at: Date | null }>(
      `select id, provider, account, scopes, connected_by, created_at, access_expires_at from public.connections where workspace_id = $1`,
      [workspaceId],
    );
  });
  return PROVIDERS.map((provider) => {
    const row = rows.find((r) => r.provider === provider);
    return {
      provider,
      configured: providerClient(provider) !== null,
      missingSettings: providerClient(provider) ? [] : PROVIDER_SETTINGS[provider],
      connection: row
        ? { id: row.id, account: row.account, scopes: row.scopes, connectedBy: row.connected_by, createdAt: row.created_at, accessExpiresAt: row.access_expires_at }
        : null,
    };
  });
}

/**
 * Starts connecting: owners and admins of the workspace (in a personal workspace, its person). Keeps a
 * fresh state (by its hash) and PKCE verifier (sealed) for the callback, and returns the provider's
 * authorization address to send the browser to.
 */
export async function startConnection(user: SessionUser, workspaceId: string, provider: Provider, now = new Date()): Promise<{ authorizationUrl: string }> {
  const client = providerClient(provider);
  if (!client) throw new ApiError('conflict', 'api.connections.notConfigured', { settings: PROVIDER_SETTINGS[provider].join(', ') });
  const ring = keyRing();
  const state = oauth.generateRandomState();
  const verifier = oauth.generateRandomCodeVerifier();
  const challenge = await oauth.calculatePKCECodeChallenge(verifier);
  const stateHash = hashState(state);
  await withUser(user, async (tx) => {
    await requireManagerOf(tx, user, workspaceId);
    await elevated(tx, async (service) => {
      await service.query(`delete from private.oauth_states where expires_at < $1`, [now.toISOString()]);
      await service.query(
        `insert into private.oauth_states (state_hash, workspace_id, user_id, provider, code_verifier, expires_at, created_at) values ($1, $2, $3, $4, $5, $6, $7)`,
        [stateHash, workspaceId, user.id, provider, sealSecret(verifier, ring, stateContext(stateHash)), new Date(now.getTime() + STATE_TTL_MS).toISOString(), now.toISOString()],
      );
    });
  });
  const url = new URL(client.as.authorization_endpoint!);
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: SCOPES[provider].join(' '),
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...client.authorizeParams,
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return { authorizationUrl: url.href };
}

/**
 * The provider sent the browser back. The state must be one this person started, for this provider, not
 * expired and not used before (it is deleted as it is read, so a replay finds nothing); then the code is
 * exchanged with the PKCE verifier, the account is named, and the tokens are stored sealed. A connection
 * the workspace already had to the provider is replaced, and its old grant revoked at the provider.
 * Returns the workspace, for the redirect back to Settings, and what happened: `denied` when the person
 * refused at the provider, `failed` when the provider did not complete the exchange.
 */
export async function completeConnection(
  user: SessionUser,
  provider: Provider,
  callback: URL,
  now = new Date(),
): Promise<{ workspaceId: string; outcome: 'connected' | 'denied' | 'failed' }> {
  const state = callback.searchParams.get('state');
  if (!state || state.length > 200) throw new ApiError('gone', 'api.connections.stateInvalid');
  const stateHash = hashState(state);
  const [pending] = await asService((tx) =>
    tx.query<{ workspace_id: string; user_id: string; provider: Provider; code_verifier: string; expires_at: Date }>(
      `delete from private.oauth_states where state_hash = $1 returning workspace_id, user_id, provider, code_verifier, expires_at`,
      [stateHash],
    ),
  );
  if (!pending || pending.user_id !== user.id || pending.provider !== provider || pending.expires_at.getTime() <= now.getTime()) {
    throw new ApiError('gone', 'api.connections.stateInvalid');
  }
  const workspaceId = pending.workspace_id;
  const client = providerClient(provider);
  if (!client) throw new ApiError('conflict', 'api.connections.notConfigured', { settings: PROVIDER_SETTINGS[provider].join(', ') });
  const ring = keyRing();
  const oauthClient = { client_id: client.clientId };

  let tokens: oauth.TokenEndpointResponse;
  try {
    const params = oauth.validateAuthResponse(client.as, oauthClient, callback, state);
    const verifier = openSecret(pending.code_verifier, ring, stateContext(stateHash));
    const response = await oauth.authorizationCodeGrantRequest(
      client.as, oauthClient, oauth.ClientSecretPost(client.clientSecret), params, client.redirectUri, verifier, clientOptions(client),
    );
    tokens = await oauth.processAuthorizationCodeResponse(client.as, oauthClient, response);
  } catch (error) {
    const denied = error instanceof oauth.AuthorizationResponseError && error.error === 'access_denied';
    log('warn', 'connection not completed', { provider, workspaceId, reason: (error as Error).message });
    return { workspaceId, outcome: denied ? 'denied' : 'failed' };
  }
  let account: string;
  try {
    account = await accountName(client, tokens.access_token);
  } catch (error) {
    log('warn', 'connection not completed', { provider, workspaceId, reason: (error as Error).message });
    return { workspaceId, outcome: 'failed' };
  }

  const replaced = await withUser(user, async (tx) => {
    await requireManagerOf(tx, user, workspaceId);
    return elevated(tx, async (service) => {
      const [old] = await service.query<{ id: string; access_token: string; refresh_token: string | null }>(
        `delete from public.connections where workspace_id = $1 and provider = $2 returning id, access_token, refresh_token`,
        [workspaceId, provider],
      );
      // The id is chosen here: the tokens are sealed to it before the row exists.
      const id = randomUUID();
      const sealed = sealTokens(ring, id, tokens, now);
      await service.query(
        `insert into public.connections (id, workspace_id, provider, account, scopes, connected_by, access_token, refresh_token, access_expires_at, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
        [id, workspaceId, provider, account, parseScopes(tokens.scope, SCOPES[provider]), user.id, sealed.access, sealed.refresh, sealed.expiresAt?.toISOString() ?? null, now.toISOString()],
      );
      return old;
    });
  });
  if (replaced) await revokeSealed(provider, replaced);
  return { workspaceId, outcome: 'connected' };
}

/** Revokes a removed connection's grant at the provider; true when the provider confirmed it. */
async function revokeSealed(provider: Provider, row: { id: string; access_token: string; refresh_token: string | null }): Promise<boolean> {
  const ring = requireKeyRing();
  const client = providerClient(provider);
  if (!client) return false;
  try {
    // Revoking Google's refresh token ends the whole grant; GitHub's grant is revoked by any of its tokens.
    const token = row.refresh_token && provider === 'google'
      ? openSecret(row.refresh_token, ring, tokenContext('refresh_token', row.id))
      : openSecret(row.access_token, ring, tokenContext('access_token', row.id));
    await revokeAtProvider(client, token);
    return true;
  } catch (error) {
    log('warn', 'revoking a connection at the provider failed', { provider, connectionId: row.id, reason: (error as Error).message });
    return false;
  }
}

/**
 * Disconnects (owners and admins): the tokens are deleted here and the grant is revoked at the provider.
 * The row goes first, in one transaction, so agents stop using it at once whatever the provider answers;
 * `revokedAtProvider` false means the provider could not confirm, and the person is told to remove the
 * access on the provider's own page.
 */
export async function disconnect(user: SessionUser, workspaceId: string, connectionId: string): Promise<{ revokedAtProvider: boolean }> {
  if (!isUuid(connectionId)) throw notFound('connection');
  const removed = await withUser(user, async (tx) => {
    await requireManagerOf(tx, user, workspaceId);
    // The tokens are not the person's to read (no column grant): the server reads them for the revocation.
    const [row] = await elevated(tx, (service) =>
      service.query<{ id: string; provider: Provider; access_token: string; refresh_token: string | null }>(
        `select id, provider, access_token, refresh_token from public.connections where id = $1 and workspace_id = $2 for update`,
        [connectionId, workspaceId],
      ),
    );
    if (!row) throw notFound('connection');
    // As the person, under RLS (connections_delete: owners and admins).
    const deleted = await tx.query(`delete from public.connections where id = $1 and workspace_id = $2 returning id`, [connectionId, workspaceId]);
    if (deleted.length === 0) throw managersOnly('manageConnections');
    return row;
  });
  return { revokedAtProvider: await revokeSealed(removed.provider, removed) };
}

/** The runtime's connection check (part of the app's run policy): does the workspace have this provider? */
export async function workspaceHasConnection(workspaceId: string, connection: string): Promise<boolean> {
  const [row] = await asService((tx) => tx.query(`select 1 from public.connections where workspace_id = $1 and provider = $2`, [workspaceId, connection]));
  return Boolean(row);
}
