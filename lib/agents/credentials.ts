import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { conflict, notFound, unauthorized } from '@/lib/api';
import { newToken, sha256 } from '@/lib/auth';
import { asService, type SessionUser, type Tx } from '@/lib/db';
import { publish } from '@/lib/realtime';
import { getOwnedAgent } from './agents';

/**
 * Agent authentication. An agent holds a long-lived key (`mvk_…`, hashed at rest, revocable) that
 * only `POST /api/agent-auth/exchange` accepts; it returns a 15-minute session token, the only
 * credential every other agent endpoint takes. Hosted runners never see the key: the supervisor that
 * starts a hosted agent's bridge calls `issueHostToken` and hands the process a host token
 * (`mvh_…`), which is good only for that same exchange, only while the agent runs hosted, and only
 * until it expires (24 h by default; switching the agent to local revokes it at once).
 */

export const AGENT_SESSION_SECONDS = 15 * 60;
export const HOST_TOKEN_SECONDS = 24 * 60 * 60;

const KEY_PREFIX = 'mvk_';
const HOST_PREFIX = 'mvh_';
// A session token is a JWT for a different audience, signed with a different secret than people's
// access tokens: neither can ever pass for the other.
const AUDIENCE = 'multiverbe-agent';
const TOKEN_TYPE = 'agent_session';

/** An agent key (`mvk_`, its owner's) or a hosted runner's host token (`mvh_`). */
export const CREDENTIAL_KINDS = ['key', 'host'] as const;
type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

export interface AgentCredential {
  id: string;
  kind: CredentialKind;
  prefix: string;
  label: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

export interface AgentSession {
  agentId: string;
  credentialId: string;
  expiresAt: Date;
  /** For a host token's session: the process (lib/queue worker) that issued it and runs the bridge. */
  workerId: string | null;
}

export const createKeySchema = z.object({ label: z.string().trim().max(80).default('') });

let secretPromise: Promise<Uint8Array> | undefined;

function agentSecret(): Promise<Uint8Array> {
  secretPromise ??= asService(async (tx) => {
    await tx.query(`insert into private.instance_settings (key, value) values ('agent_jwt_secret', $1) on conflict (key) do nothing`, [newToken(48)]);
    const [row] = await tx.query<{ value: string }>(`select value from private.instance_settings where key = 'agent_jwt_secret'`);
    return new TextEncoder().encode(row!.value);
  }).catch((error) => {
    secretPromise = undefined;
    throw error;
  });
  return secretPromise;
}

const credentialColumns = `id, kind, prefix, label, created_at, expires_at, revoked_at, last_used_at`;
type CredentialRow = {
  id: string;
  kind: CredentialKind;
  prefix: string;
  label: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
};
const toCredential = (r: CredentialRow): AgentCredential => ({
  id: r.id,
  kind: r.kind,
  prefix: r.prefix,
  label: r.label,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  lastUsedAt: r.last_used_at,
});

const secretOf = (prefix: string) => `${prefix}${newToken(32)}`;
// Enough of the secret to tell keys apart in a list; far too little to guess the rest.
const displayPrefix = (secret: string) => secret.slice(0, 12);

/** A new key for the agent, inside the caller's transaction. The secret is returned this once; only its hash is kept. */
export async function insertAgentKey(tx: Tx, agentId: string, label: string, createdBy: string): Promise<{ key: string; credential: AgentCredential }> {
  const key = secretOf(KEY_PREFIX);
  const [row] = await tx.query<CredentialRow>(
    `insert into private.agent_api_keys (agent_id, kind, prefix, key_hash, label, created_by)
     values ($1, 'key', $2, $3, $4, $5) returning ${credentialColumns}`,
    [agentId, displayPrefix(key), sha256(key), label, createdBy],
  );
  return { key, credential: toCredential(row!) };
}

export async function selectAgentKeys(tx: Tx, agentId: string): Promise<AgentCredential[]> {
  const rows = await tx.query<CredentialRow>(`select ${credentialColumns} from private.agent_api_keys where agent_id = $1 order by created_at`, [agentId]);
  return rows.map(toCredential);
}

/** Revokes one credential of the agent, inside the caller's transaction; 404 when it has no such credential. */
export async function revokeKeyOf(tx: Tx, agentId: string, keyId: string): Promise<AgentCredential> {
  const [row] = z.string().uuid().safeParse(keyId).success
    ? await tx.query<CredentialRow>(
        `update private.agent_api_keys set revoked_at = coalesce(revoked_at, now())
          where id = $1 and agent_id = $2 returning ${credentialColumns}`,
        [keyId, agentId],
      )
    : [];
  if (!row) throw notFound('key');
  // Open event streams of its sessions end now, not when the session token runs out.
  await publish(tx, { type: 'credentials', agentId });
  return toCredential(row);
}

/** A new key for the owner's agent. The secret is returned this once; only its hash is kept. */
export async function createAgentKey(user: SessionUser, agentId: string, label = ''): Promise<{ key: string; credential: AgentCredential }> {
  const agent = await getOwnedAgent(user, agentId);
  return asService((tx) => insertAgentKey(tx, agent.id, label, user.id));
}

export async function listAgentKeys(user: SessionUser, agentId: string): Promise<AgentCredential[]> {
  const agent = await getOwnedAgent(user, agentId);
  return asService((tx) => selectAgentKeys(tx, agent.id));
}

/** Revokes a key or host token: the exchange refuses it, and session tokens it produced and their event streams stop working. */
export async function revokeAgentKey(user: SessionUser, agentId: string, keyId: string): Promise<AgentCredential> {
  const agent = await getOwnedAgent(user, agentId);
  return asService((tx) => revokeKeyOf(tx, agent.id, keyId));
}

/**
 * A host token for a hosted agent, issued by the hosted-runner supervisor (server side, never over
 * HTTP) when it starts the agent's bridge on a host machine. `workerId` names the process running the
 * bridge: the deliveries its sessions claim are held by that process, and freed as soon as it is known dead.
 */
export async function issueHostToken(
  agentId: string,
  host: string,
  ttlSeconds = HOST_TOKEN_SECONDS,
  workerId: string | null = null,
): Promise<{ token: string; expiresAt: Date }> {
  const token = secretOf(HOST_PREFIX);
  const [row] = await asService((tx) =>
    tx.query<{ expires_at: Date }>(
      `insert into private.agent_api_keys (agent_id, kind, prefix, key_hash, label, expires_at, worker_id)
       select a.id, 'host', $2, $3, $4, now() + make_interval(secs => $5), $6::uuid from private.agents a
        where a.id = $1 and a.runtime = 'hosted'
       returning expires_at`,
      [agentId, displayPrefix(token), sha256(token), host.slice(0, 80), ttlSeconds, workerId],
    ),
  );
  if (!row) throw conflict('api.agents.hostTokensHostedOnly');
  return { token, expiresAt: row.expires_at };
}

const refused = () => unauthorized('api.agents.keyRefused');

/** Trades a key or host token for a 15-minute session token. */
export async function exchangeAgentCredential(secret: string): Promise<{ token: string; tokenType: 'Bearer'; expiresAt: Date; agentId: string }> {
  if (!secret.startsWith(KEY_PREFIX) && !secret.startsWith(HOST_PREFIX)) throw refused();
  const [row] = await asService((tx) =>
    tx.query<{ id: string; agent_id: string; worker_id: string | null }>(
      `update private.agent_api_keys k set last_used_at = now()
         from private.agents a
        where k.key_hash = $1 and a.id = k.agent_id and k.revoked_at is null
          and (k.kind = 'key' or (k.expires_at > now() and a.runtime = 'hosted'))
        returning k.id, k.agent_id, k.worker_id`,
      [sha256(secret)],
    ),
  );
  if (!row) throw refused();
  const expiresAt = new Date((Math.floor(Date.now() / 1000) + AGENT_SESSION_SECONDS) * 1000);
  const token = await new SignJWT({ typ: TOKEN_TYPE, cid: row.id, ...(row.worker_id ? { wid: row.worker_id } : {}) })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(row.agent_id)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(await agentSecret());
  return { token, tokenType: 'Bearer', expiresAt, agentId: row.agent_id };
}

/** The session a token stands for, or null: bad signature, other audience, expired, or its key revoked. */
export async function verifyAgentSession(token: string): Promise<AgentSession | null> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, await agentSecret(), { algorithms: ['HS256'], audience: AUDIENCE }));
  } catch {
    return null;
  }
  if (payload.typ !== TOKEN_TYPE || typeof payload.sub !== 'string' || typeof payload.cid !== 'string' || !payload.exp) return null;
  const session = {
    agentId: payload.sub,
    credentialId: payload.cid,
    expiresAt: new Date(payload.exp * 1000),
    workerId: typeof payload.wid === 'string' ? payload.wid : null,
  };
  return (await agentSessionStands(session)) ? session : null;
}

/** Whether the key or host token a session was made from is still unrevoked: revoking one must not wait for its sessions to run out. */
export async function agentSessionStands({ agentId, credentialId }: AgentSession): Promise<boolean> {
  const [live] = await asService((tx) =>
    tx.query(`select 1 from private.agent_api_keys where id = $1 and agent_id = $2 and revoked_at is null`, [credentialId, agentId]),
  );
  return Boolean(live);
}

/** The agent behind a request to any agent endpoint except the exchange: a session token only. */
export async function requireAgent(req: Request): Promise<AgentSession> {
  const bearer = req.headers.get('authorization')?.match(/^Bearer (.+)$/i)?.[1]?.trim();
  if (req.headers.has('x-agent-key') || bearer?.startsWith(KEY_PREFIX) || bearer?.startsWith(HOST_PREFIX)) {
    throw unauthorized('api.agents.keyNotHere');
  }
  if (!bearer) throw unauthorized('api.agents.sendSession');
  const session = await verifyAgentSession(bearer);
  if (!session) throw unauthorized('api.agents.sessionInvalid');
  return session;
}
