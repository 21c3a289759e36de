import { z } from 'zod';
import { BACKENDS, type BackendId } from '@/lib/agent';
import { conflict, invalidField, managersOnly, notFound, rethrowAsApiError, validate } from '@/lib/api';
import { asService, withUser, type SessionUser, type Tx } from '@/lib/db';
import { publish } from '@/lib/realtime';
import { getWorkspace } from '@/lib/workspaces';

/** An agent connection silent for longer than this shows offline. */
export const ONLINE_WINDOW_SECONDS = 180;

/** `hosted`: the app runs the agent's bridge; `local`: its owner runs it on their own machine. */
export const AGENT_RUNTIMES = ['hosted', 'local'] as const;
/** `everywhere`: every workspace of its owner; `pinned`: the chosen ones. */
export const AGENT_VISIBILITIES = ['everywhere', 'pinned'] as const;

export interface Agent {
  id: string;
  ownerUserId: string;
  name: string;
  role: string;
  capabilities: string[];
  backend: BackendId;
  model: string | null;
  runtime: (typeof AGENT_RUNTIMES)[number];
  visibility: (typeof AGENT_VISIBILITIES)[number];
  online: boolean;
  lastSeenAt: Date | null;
  createdAt: Date;
}

/** The owner's view: also what it is told to do and where it appears. */
export interface OwnedAgent extends Agent {
  instructions: string;
  workspaceIds: string[];
}

const name = z
  .string()
  .trim()
  .min(1, 'api.agents.nameRequired')
  .max(40, 'api.field.maxChars')
  .regex(/^[^@<>",\r\n\t]+$/, 'api.agents.nameCharacters');
const capability = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(40)
  .regex(/^[^,\r\n\t]+$/, 'api.agents.oneCapability');

/**
 * `everywhere`: all of the owner's workspaces, now and later; `personal`: only the owner's personal one;
 * a list: only those, each one the owner manages (owner or admin there).
 */
export const agentWorkspacesSchema = z.union([z.literal('everywhere'), z.literal('personal'), z.array(z.string().uuid()).min(1).max(100)]);
const workspaces = agentWorkspacesSchema;
/** Plain-language instructions, put in the agent's system prompt as written. */
const instructions = z.string().trim().max(4000, 'api.field.maxChars');

export const createAgentSchema = z.object({
  name,
  role: z.string().trim().max(80).default(''),
  capabilities: z.array(capability).max(20).default([]),
  instructions: instructions.default(''),
  backend: z.enum(BACKENDS).default('claude-code'),
  model: z.string().trim().min(1).max(100).nullable().default(null),
  runtime: z.enum(AGENT_RUNTIMES).default('hosted'),
  workspaces: workspaces.default('everywhere'),
});

export const updateAgentSchema = z
  .object({
    name,
    role: z.string().trim().max(80),
    capabilities: z.array(capability).max(20),
    instructions,
    backend: z.enum(BACKENDS),
    model: z.string().trim().min(1).max(100).nullable(),
    runtime: z.enum(AGENT_RUNTIMES),
    workspaces,
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'api.agents.nothingToChange');

export interface AgentRow {
  id: string;
  owner_user_id: string;
  name: string;
  role: string;
  capabilities: string[];
  instructions?: string;
  backend: Agent['backend'];
  model: string | null;
  runtime: Agent['runtime'];
  visibility: Agent['visibility'];
  last_seen_at: Date | null;
  created_at: Date;
  workspace_ids?: string[];
}

export function toAgent(row: AgentRow): Agent {
  const lastSeenAt = row.last_seen_at ? new Date(row.last_seen_at) : null;
  return {
    id: row.id,
    ownerUserId: row.owner_user_id,
    name: row.name,
    role: row.role,
    capabilities: row.capabilities,
    backend: row.backend,
    model: row.model,
    runtime: row.runtime,
    visibility: row.visibility,
    online: lastSeenAt !== null && Date.now() - lastSeenAt.getTime() < ONLINE_WINDOW_SECONDS * 1000,
    lastSeenAt,
    createdAt: row.created_at,
  };
}

const toOwnedAgent = (row: AgentRow): OwnedAgent => ({ ...toAgent(row), instructions: row.instructions ?? '', workspaceIds: row.workspace_ids ?? [] });

// Agents are private rows (an agent spans workspaces), so the owner's own reads and writes run as the
// service with the owner named in every statement.
const ownedAgentSql = `
  select a.id, a.owner_user_id, a.name, a.role, a.capabilities, a.instructions, a.backend, a.model, a.runtime, a.visibility, a.created_at,
         (select max(k.last_heartbeat_at) from private.agent_connections k where k.agent_id = a.id) as last_seen_at,
         coalesce((select array_agg(wa.workspace_id::text order by wa.created_at) from public.workspace_agents wa where wa.agent_id = a.id), '{}') as workspace_ids
    from private.agents a`;

async function findOwnedAgent(tx: Tx, user: SessionUser, agentId: string): Promise<OwnedAgent> {
  const [row] = z.string().uuid().safeParse(agentId).success
    ? await tx.query<AgentRow>(`${ownedAgentSql} where a.id = $1 and a.owner_user_id = $2`, [agentId, user.id])
    : [];
  // Someone else's agent is indistinguishable from a missing one.
  if (!row) throw notFound('agent');
  return toOwnedAgent(row);
}

/**
 * Makes `public.workspace_agents` say exactly where the agent appears. A chosen workspace must be one
 * its owner manages (owner or admin there): putting an agent in a workspace is managing its agents,
 * which members may not do. `everywhere` follows its owner into every workspace, as before.
 */
async function applyVisibility(tx: Tx, agentId: string, ownerId: string, target: z.infer<typeof workspaces>) {
  if (target === 'everywhere') {
    await tx.query(`update private.agents set visibility = 'everywhere' where id = $1`, [agentId]);
    await tx.query(
      `insert into public.workspace_agents (workspace_id, agent_id)
       select m.workspace_id, $1 from public.workspace_members m where m.user_id = $2
       on conflict do nothing`,
      [agentId, ownerId],
    );
    return;
  }
  const ids =
    target === 'personal'
      ? (await tx.query<{ id: string }>(`select id from public.workspaces where owner_id = $1 and is_personal`, [ownerId])).map((w) => w.id)
      : [...new Set(target)];
  const [{ missing, unmanaged }] = (await tx.query<{ missing: string[]; unmanaged: string[] }>(
    `select coalesce(array_agg(id::text) filter (where m.role is null), '{}') as missing,
            coalesce(array_agg(id::text) filter (where m.role = 'member'), '{}') as unmanaged
       from unnest($1::uuid[]) as id
       left join public.workspace_members m on m.workspace_id = id and m.user_id = $2`,
    [ids, ownerId],
  )) as [{ missing: string[]; unmanaged: string[] }];
  if (missing.length > 0) {
    throw invalidField('workspaces', 'api.agents.pinnedToOwn', { ids: missing.join(', ') }, 'api.agents.notYourWorkspaces');
  }
  if (unmanaged.length > 0) throw managersOnly('manageAgents');
  await tx.query(`update private.agents set visibility = 'pinned' where id = $1`, [agentId]);
  await tx.query(`delete from public.workspace_agents where agent_id = $1 and workspace_id <> all($2::uuid[])`, [agentId, ids]);
  await tx.query(
    `insert into public.workspace_agents (workspace_id, agent_id) select id, $1 from unnest($2::uuid[]) as id on conflict do nothing`,
    [agentId, ids],
  );
}

function nameTaken(error: unknown, agentName: string | undefined): never {
  if ((error as { code?: string }).code === '23505') throw conflict('api.agents.nameTaken', { name: agentName ?? '' });
  rethrowAsApiError(error);
}

/** Inserts the agent of `ownerId` and places it, inside the caller's transaction. Returns its id. */
export async function insertAgent(tx: Tx, ownerId: string, data: z.infer<typeof createAgentSchema>): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `insert into private.agents (owner_user_id, name, role, capabilities, instructions, backend, model, runtime)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
    [ownerId, data.name, data.role, [...new Set(data.capabilities)], data.instructions, data.backend, data.model, data.runtime],
  );
  await applyVisibility(tx, row!.id, ownerId, data.workspaces);
  return row!.id;
}

/** Changes what `data` names, inside the caller's transaction. */
export async function changeAgent(tx: Tx, agent: Pick<Agent, 'id' | 'ownerUserId'>, data: z.infer<typeof updateAgentSchema>): Promise<void> {
  await tx.query(
    `update private.agents set
       name = coalesce($2, name), role = coalesce($3, role), capabilities = coalesce($4, capabilities),
       backend = coalesce($5, backend), model = case when $6::boolean then $7 else model end,
       runtime = coalesce($8, runtime), instructions = coalesce($9, instructions), updated_at = now()
     where id = $1`,
    [
      agent.id,
      data.name ?? null,
      data.role ?? null,
      data.capabilities ? [...new Set(data.capabilities)] : null,
      data.backend ?? null,
      data.model !== undefined,
      data.model ?? null,
      data.runtime ?? null,
      data.instructions ?? null,
    ],
  );
  // Moving an agent off hosted infrastructure ends its host assignment completely: its host
  // tokens stop working at once.
  if (data.runtime === 'local') {
    const revoked = await tx.query(`update private.agent_api_keys set revoked_at = now() where agent_id = $1 and kind = 'host' and revoked_at is null returning 1`, [agent.id]);
    if (revoked.length) await publish(tx, { type: 'credentials', agentId: agent.id });
  }
  if (data.workspaces) await applyVisibility(tx, agent.id, agent.ownerUserId, data.workspaces);
}

export async function createAgent(user: SessionUser, input: z.input<typeof createAgentSchema>): Promise<OwnedAgent> {
  // Routes have parsed it already; this also fills defaults.
  const data = validate(createAgentSchema, input);
  return asService(async (tx) => findOwnedAgent(tx, user, await insertAgent(tx, user.id, data))).catch((error) => nameTaken(error, data.name));
}

export async function updateAgent(user: SessionUser, agentId: string, input: z.input<typeof updateAgentSchema>): Promise<OwnedAgent> {
  const data = validate(updateAgentSchema, input);
  return asService(async (tx) => {
    const agent = await findOwnedAgent(tx, user, agentId);
    await changeAgent(tx, agent, data);
    return findOwnedAgent(tx, user, agent.id);
  }).catch((error) => nameTaken(error, data.name));
}

export async function getOwnedAgent(user: SessionUser, agentId: string): Promise<OwnedAgent> {
  return asService((tx) => findOwnedAgent(tx, user, agentId));
}

/** The caller's own agents, wherever they appear. */
export async function listOwnAgents(user: SessionUser): Promise<OwnedAgent[]> {
  const rows = await asService((tx) => tx.query<AgentRow>(`${ownedAgentSql} where a.owner_user_id = $1 order by lower(a.name)`, [user.id]));
  return rows.map(toOwnedAgent);
}

/** The agents shown in a workspace (anyone's), read under RLS as the caller. */
export async function listWorkspaceAgents(user: SessionUser, workspaceId: string): Promise<Agent[]> {
  if (!(await getWorkspace(user, workspaceId))) throw notFound('workspace');
  const rows = await withUser(user, (tx) =>
    tx.query<AgentRow>(
      `select a.* from private.visible_agents() a
         join public.workspace_agents wa on wa.agent_id = a.id and wa.workspace_id = $1
        order by lower(a.name), a.created_at`,
      [workspaceId],
    ),
  );
  return rows.map(toAgent);
}

/** What an agent connection knows about itself. */
export async function getAgentSelf(agentId: string): Promise<OwnedAgent> {
  const [row] = await asService((tx) => tx.query<AgentRow>(`${ownedAgentSql} where a.id = $1`, [agentId]));
  if (!row) throw notFound('agent');
  return toOwnedAgent(row);
}
