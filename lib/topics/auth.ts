import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { forbidden, isUuid, notFound, rethrowAsApiError } from '@/lib/api';
import { constantTimeEqual, getRequestUser, newToken, sha256 } from '@/lib/auth';
import { config } from '@/lib/config';
import { asService, getDb, withUser, type SessionUser, type Tx } from '@/lib/db';
import { getWorkspace, workspaceFor } from '@/lib/workspaces';

/**
 * Who calls the topic API, always inside one workspace:
 * - `key`: an API key (X-Api-Key), the contract's way. Runs as the service, every query names the workspace.
 * - `user`: Multiverbe's own pages, a signed-in member naming the workspace in X-Workspace-Id. Runs under RLS.
 */
export type Caller =
  | { kind: 'key'; workspaceId: string; /** null: the API_KEY environment variable. */ keyId: string | null }
  | { kind: 'user'; workspaceId: string; user: SessionUser };

const API_KEY_HEADER = 'x-api-key';
const WORKSPACE_HEADER = 'x-workspace-id';

const KEY_PREFIX = 'mvk_';
// `mvk_` and 8 characters of the secret: enough to find a key and to recognise it in a list.
const PREFIX_LENGTH = KEY_PREFIX.length + 8;

const invalidKey = () => forbidden('api.topics.invalidKey');

/** The caller of a topic API request, or 403 as the contract says when the key is missing or invalid. */
export async function authenticate(req: Request): Promise<Caller> {
  const key = req.headers.get(API_KEY_HEADER);
  if (key) {
    const caller = await callerForKey(key.trim());
    if (!caller) throw invalidKey();
    return caller;
  }
  const workspaceId = req.headers.get(WORKSPACE_HEADER);
  if (workspaceId) {
    const user = await getRequestUser(req);
    if (user && (await getWorkspace(user, workspaceId))) return { kind: 'user', workspaceId, user };
  }
  throw invalidKey();
}

/** Runs `fn` in one transaction as the caller: the service for keys, the member under RLS for the app. */
export function inWorkspace<T>(caller: Caller, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return (caller.kind === 'user' ? withUser(caller.user, fn) : asService(fn)).catch(rethrowAsApiError);
}

/** The caller an API key stands for, or null when it is not a live key (also the MCP endpoint's check). */
export async function callerForKey(key: string): Promise<Caller | null> {
  const hash = sha256(key);
  if (key.startsWith(KEY_PREFIX) && key.length > PREFIX_LENGTH) {
    // One statement on its own, no transaction around it: this runs on every call of the API.
    const rows = await (await getDb()).query<{ id: string; workspace_id: string; key_hash: string }>(
      `select id, workspace_id, key_hash from public.api_keys where prefix = $1 and revoked_at is null`,
      [key.slice(0, PREFIX_LENGTH)],
    );
    const match = rows.find((row) => constantTimeEqual(hash, row.key_hash));
    if (match) {
      await markUsed(match.id);
      return { kind: 'key', workspaceId: match.workspace_id, keyId: match.id };
    }
  }
  const envKey = config().API_KEY;
  // Both sides hashed: equal lengths, so the comparison time says nothing about the key's length.
  if (envKey && constantTimeEqual(hash, sha256(envKey))) {
    const workspaceId = await defaultWorkspaceId();
    if (!workspaceId) throw forbidden('api.topics.noWorkspaceForKey');
    return { kind: 'key', workspaceId, keyId: null };
  }
  return null;
}

// At most one write a minute per key: "last used" is for people, not an audit log.
function markUsed(keyId: string) {
  return asService((tx) =>
    tx.query(
      `update public.api_keys set last_used_at = now()
        where id = $1 and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
      [keyId],
    ),
  );
}

/**
 * The workspace of the API_KEY environment variable: API_KEY_WORKSPACE_ID, else the oldest team
 * workspace (a single-tenant install has one), else the oldest workspace (a single person's install).
 */
async function defaultWorkspaceId(): Promise<string | null> {
  const configured = config().API_KEY_WORKSPACE_ID;
  const [row] = await asService((tx) =>
    tx.query<{ id: string }>(
      configured
        ? `select id from public.workspaces where id = $1`
        : `select id from public.workspaces order by is_personal, created_at, id limit 1`,
      configured ? [configured] : [],
    ),
  );
  return row?.id ?? null;
}

// --- Managing keys (Settings → API keys; Multiverbe's own camelCase API) ----------------------------

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdBy: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export const createApiKeySchema = z.object({ name: z.string().trim().min(1, 'api.topics.keyNameRequired').max(80, 'api.field.maxChars') });

const keyColumns = 'id, name, prefix, created_by, created_at, last_used_at, revoked_at';

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  created_by: string | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const toKey = (r: KeyRow): ApiKey => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  createdBy: r.created_by,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

/** Admins only: the app checks first for a clear message, RLS enforces it anyway. */
const requireAdmin = (user: SessionUser, workspaceId: string) => workspaceFor(user, workspaceId, { who: 'managers', what: 'manageApiKeys' });

export async function listApiKeys(user: SessionUser, workspaceId: string): Promise<ApiKey[]> {
  await requireAdmin(user, workspaceId);
  const rows = await withUser(user, (tx) =>
    tx.query<KeyRow>(`select ${keyColumns} from public.api_keys where workspace_id = $1 order by revoked_at nulls first, created_at desc`, [workspaceId]),
  ).catch(rethrowAsApiError);
  return rows.map(toKey);
}

/** The new key and its secret, which is shown this once and never stored. */
export async function createApiKey(user: SessionUser, workspaceId: string, input: z.infer<typeof createApiKeySchema>) {
  await requireAdmin(user, workspaceId);
  const secret = `${KEY_PREFIX}${newToken(30)}`;
  const id = randomUUID();
  const [row] = await withUser(user, (tx) =>
    tx.query<KeyRow>(
      `insert into public.api_keys (id, workspace_id, name, prefix, key_hash, created_by)
       values ($1, $2, $3, $4, $5, $6) returning ${keyColumns}`,
      [id, workspaceId, input.name, secret.slice(0, PREFIX_LENGTH), sha256(secret), user.id],
    ),
  ).catch(rethrowAsApiError);
  return { key: toKey(row!), secret };
}

export async function revokeApiKey(user: SessionUser, workspaceId: string, keyId: string): Promise<ApiKey> {
  await requireAdmin(user, workspaceId);
  if (!isUuid(keyId)) throw notFound('apiKey');
  const [row] = await withUser(user, (tx) =>
    tx.query<KeyRow>(
      `update public.api_keys set revoked_at = coalesce(revoked_at, now()) where workspace_id = $1 and id = $2 returning ${keyColumns}`,
      [workspaceId, keyId],
    ),
  ).catch(rethrowAsApiError);
  if (!row) throw notFound('apiKey');
  return toKey(row);
}
