import { z } from 'zod';
import { describeBackends } from '@/lib/agent';
import { conflict, forbidden, invalidField, isUuid, managersOnly, notFound, rethrowAsApiError, validate } from '@/lib/api';
import { asService, type SessionUser, type Tx } from '@/lib/db';
import { publish } from '@/lib/realtime';
import type { Role } from '@/lib/workspaces';
import { changeAgent, createAgentSchema, insertAgent, toAgent, updateAgentSchema, type Agent, type AgentRow, type OwnedAgent } from './agents';
import { createKeySchema, insertAgentKey, revokeKeyOf, selectAgentKeys, type AgentCredential } from './credentials';

/**
 * The Agents screen of one workspace (Settings → Agents). Every member sees the agents that appear in
 * it; owners and admins manage them. Agents live in `private` (an agent spans workspaces), so no RLS
 * policy can say who writes them: this module is the guard. Every function below reads the caller's
 * role and the agent in the same transaction as its write, names the caller in every statement, and
 * refuses before writing anything:
 * - a stranger to the workspace: 404, as for a workspace that does not exist;
 * - a member: 403 (`api.managersOnly.manageAgents`);
 * - an owner or admin, for an agent that also appears in a workspace they do not manage and that is
 *   not theirs: 403 (`api.agents.managedElsewhere`). One agent is one row wherever it appears, so a
 *   change made here changes it there too; only someone trusted everywhere it works may make it.
 */

export interface WorkspaceAgent extends Agent {
  /** What its owner told it to do, in plain language (members read it too: it is how the agent behaves). */
  instructions: string;
  /** Whether the caller may change, key and delete it from this workspace. */
  manageable: boolean;
  /** Where it appears; only for those who manage it (a member does not learn its owner's other workspaces). */
  workspaceIds: string[] | null;
}

interface Row extends AgentRow {
  instructions: string;
  manageable: boolean;
  workspace_ids: string[];
}

// $1 the workspace, $2 the caller. `manageable`: the caller manages this workspace, and owns the agent
// or manages every workspace it appears in.
const agentsInSql = `
  select a.id, a.owner_user_id, a.name, a.role, a.capabilities, a.instructions, a.backend, a.model, a.runtime, a.visibility, a.created_at,
         (select max(k.last_heartbeat_at) from private.agent_connections k where k.agent_id = a.id) as last_seen_at,
         (me.role in ('owner', 'admin') and (a.owner_user_id = $2 or not exists (
            select 1 from public.workspace_agents o
             where o.agent_id = a.id
               and not exists (select 1 from public.workspace_members om
                                where om.workspace_id = o.workspace_id and om.user_id = $2 and om.role in ('owner', 'admin'))))) as manageable,
         coalesce((select array_agg(o.workspace_id::text order by o.created_at) from public.workspace_agents o where o.agent_id = a.id), '{}') as workspace_ids
    from public.workspace_agents wa
    join private.agents a on a.id = wa.agent_id
    join public.workspace_members me on me.workspace_id = wa.workspace_id and me.user_id = $2
   where wa.workspace_id = $1`;

function toWorkspaceAgent(row: Row): WorkspaceAgent {
  return { ...toAgent(row), instructions: row.instructions, manageable: row.manageable, workspaceIds: row.manageable ? row.workspace_ids : null };
}

/** The caller's role in the workspace; 404 for a stranger (or an id that is not one). */
async function roleIn(tx: Tx, user: SessionUser, workspaceId: string): Promise<Role> {
  const [row] = isUuid(workspaceId)
    ? await tx.query<{ role: Role }>(`select role from public.workspace_members where workspace_id = $1 and user_id = $2`, [workspaceId, user.id])
    : [];
  if (!row) throw notFound('workspace');
  return row.role;
}

async function requireManager(tx: Tx, user: SessionUser, workspaceId: string): Promise<void> {
  if ((await roleIn(tx, user, workspaceId)) === 'member') throw managersOnly('manageAgents');
}

async function findIn(tx: Tx, user: SessionUser, workspaceId: string, agentId: string): Promise<WorkspaceAgent> {
  const [row] = isUuid(agentId) ? await tx.query<Row>(`${agentsInSql} and a.id = $3`, [workspaceId, user.id, agentId]) : [];
  if (!row) throw notFound('agent');
  return toWorkspaceAgent(row);
}

/** The agent, if the caller may manage it from this workspace; 404 / 403 as the module says. */
async function manageableAgent(tx: Tx, user: SessionUser, workspaceId: string, agentId: string): Promise<WorkspaceAgent> {
  await requireManager(tx, user, workspaceId);
  const agent = await findIn(tx, user, workspaceId, agentId);
  if (!agent.manageable) throw forbidden('api.agents.managedElsewhere');
  return agent;
}

/** A hosted agent runs here, so its backend must be one this server can run (what /api/health reports). */
function requireRunnableHere(backend: Agent['backend'], runtime: Agent['runtime']) {
  if (runtime !== 'hosted') return;
  const report = describeBackends().backends.find((b) => b.id === backend);
  if (!report?.available) throw invalidField('backend', 'api.agents.backendUnavailable', { backend: report?.label ?? backend });
}

/** Pinned by someone who does not own the agent: only to workspaces they manage too. */
async function requirePlacedWhereManaged(tx: Tx, user: SessionUser, agent: WorkspaceAgent, target: z.infer<typeof updateAgentSchema>['workspaces']) {
  if (target === undefined || agent.ownerUserId === user.id) return;
  // Everywhere and personal follow the owner into workspaces the caller may know nothing of.
  if (!Array.isArray(target)) throw forbidden('api.agents.ownerPlaces');
  const [{ unmanaged }] = (await tx.query<{ unmanaged: number }>(
    `select count(*)::int as unmanaged from unnest($1::uuid[]) as id
      where not exists (select 1 from public.workspace_members m where m.workspace_id = id and m.user_id = $2 and m.role in ('owner', 'admin'))`,
    [[...new Set(target)], user.id],
  )) as [{ unmanaged: number }];
  if (unmanaged > 0) throw managersOnly('manageAgents');
}

function nameTaken(error: unknown, name: string | undefined): never {
  if ((error as { code?: string }).code === '23505') throw conflict('api.agents.nameTaken', { name: name ?? '' });
  rethrowAsApiError(error);
}

/** Every agent that appears in the workspace, for any member; `manageable` says what the caller may do. */
export async function listAgentsIn(user: SessionUser, workspaceId: string): Promise<WorkspaceAgent[]> {
  return asService(async (tx) => {
    await roleIn(tx, user, workspaceId);
    const rows = await tx.query<Row>(`${agentsInSql} order by lower(a.name), a.created_at`, [workspaceId, user.id]);
    return rows.map(toWorkspaceAgent);
  });
}

export async function getAgentIn(user: SessionUser, workspaceId: string, agentId: string): Promise<WorkspaceAgent> {
  return asService(async (tx) => {
    await roleIn(tx, user, workspaceId);
    return findIn(tx, user, workspaceId, agentId);
  });
}

/**
 * A new agent, made from this workspace by its owner or an admin, who owns it. Where it appears is
 * theirs to choose among the workspaces they manage (it may be placed away from this one: then it is
 * not in this list, and the answer says where it is).
 */
export async function createAgentIn(user: SessionUser, workspaceId: string, input: z.input<typeof createAgentSchema>): Promise<OwnedAgent> {
  const data = validate(createAgentSchema, input);
  return asService(async (tx) => {
    await requireManager(tx, user, workspaceId);
    requireRunnableHere(data.backend, data.runtime);
    const id = await insertAgent(tx, user.id, data);
    return readAgent(tx, id);
  }).catch((error) => nameTaken(error, data.name));
}

export async function updateAgentIn(
  user: SessionUser,
  workspaceId: string,
  agentId: string,
  input: z.input<typeof updateAgentSchema>,
): Promise<OwnedAgent> {
  const data = validate(updateAgentSchema, input);
  return asService(async (tx) => {
    const agent = await manageableAgent(tx, user, workspaceId, agentId);
    await requirePlacedWhereManaged(tx, user, agent, data.workspaces);
    requireRunnableHere(data.backend ?? agent.backend, data.runtime ?? agent.runtime);
    await changeAgent(tx, agent, data);
    return readAgent(tx, agent.id);
  }).catch((error) => nameTaken(error, data.name));
}

/**
 * Deletes the agent everywhere it appears: its keys, connections, memberships and queued deliveries
 * go with it (foreign keys); its messages stay, signed with its name. Its bridge's streams end now.
 */
export async function deleteAgentIn(user: SessionUser, workspaceId: string, agentId: string): Promise<{ id: string }> {
  return asService(async (tx) => {
    const agent = await manageableAgent(tx, user, workspaceId, agentId);
    await tx.query(`delete from private.agents where id = $1`, [agent.id]);
    await publish(tx, { type: 'credentials', agentId: agent.id });
    return { id: agent.id };
  });
}

export async function listAgentKeysIn(user: SessionUser, workspaceId: string, agentId: string): Promise<AgentCredential[]> {
  return asService(async (tx) => selectAgentKeys(tx, (await manageableAgent(tx, user, workspaceId, agentId)).id));
}

/** A new key; the secret is in this answer only. */
export async function createAgentKeyIn(
  user: SessionUser,
  workspaceId: string,
  agentId: string,
  input: z.input<typeof createKeySchema>,
): Promise<{ key: string; credential: AgentCredential }> {
  const { label } = validate(createKeySchema, input);
  return asService(async (tx) => insertAgentKey(tx, (await manageableAgent(tx, user, workspaceId, agentId)).id, label, user.id));
}

/** Revokes a key: the exchange refuses it and the sessions made from it stop at their next request. */
export async function revokeAgentKeyIn(user: SessionUser, workspaceId: string, agentId: string, keyId: string): Promise<AgentCredential> {
  return asService(async (tx) => revokeKeyOf(tx, (await manageableAgent(tx, user, workspaceId, agentId)).id, keyId));
}

async function readAgent(tx: Tx, agentId: string): Promise<OwnedAgent> {
  const [row] = await tx.query<Row>(
    `select a.id, a.owner_user_id, a.name, a.role, a.capabilities, a.instructions, a.backend, a.model, a.runtime, a.visibility, a.created_at,
            (select max(k.last_heartbeat_at) from private.agent_connections k where k.agent_id = a.id) as last_seen_at,
            true as manageable,
            coalesce((select array_agg(o.workspace_id::text order by o.created_at) from public.workspace_agents o where o.agent_id = a.id), '{}') as workspace_ids
       from private.agents a where a.id = $1`,
    [agentId],
  );
  const agent: Partial<WorkspaceAgent> & OwnedAgent = { ...toWorkspaceAgent(row!), workspaceIds: row!.workspace_ids };
  delete agent.manageable;
  return agent;
}
