import { afterEach, describe, expect, it } from 'vitest';
import { useFakeModelEnv } from '@/lib/agent/testing';
import { signAccessToken } from '@/lib/auth';
import { createConversation } from '@/lib/chat';
import { asService, type SessionUser } from '@/lib/db';
import { createWorkspace, listWorkspaces } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser, joinWorkspace } from '@/test/fixtures';
import * as agentsRoute from '@/app/api/workspaces/[workspaceId]/agents/route';
import * as agentRoute from '@/app/api/workspaces/[workspaceId]/agents/[agentId]/route';
import * as keysRoute from '@/app/api/workspaces/[workspaceId]/agents/[agentId]/keys/route';
import * as keyRoute from '@/app/api/workspaces/[workspaceId]/agents/[agentId]/keys/[keyId]/route';
import {
  createAgent,
  createAgentIn,
  createAgentKeyIn,
  deleteAgentIn,
  exchangeAgentCredential,
  getAgentIn,
  listAgentKeysIn,
  listAgentsIn,
  requireAgent,
  revokeAgentKeyIn,
  updateAgentIn,
} from '.';

setupTestDatabase();

let restoreEnv: (() => void) | undefined;
afterEach(() => {
  restoreEnv?.();
  restoreEnv = undefined;
});

/** A salon with its owner, an admin, a member, and someone from outside. */
async function salon() {
  const [owner, admin, member, stranger] = await Promise.all([createUser('owner'), createUser('admin'), createUser('member'), createUser('stranger')]);
  const team = await createWorkspace(owner, { name: 'Salon' });
  await joinWorkspace(owner, team.id, admin, 'admin');
  await joinWorkspace(owner, team.id, member);
  return { owner, admin, member, stranger, team };
}

const offline = { backend: 'offline', runtime: 'hosted' } as const;

/** Everything about the agent a write could change, so "nothing was written" is checked, not assumed. */
async function snapshot(agentId: string) {
  return asService(async (tx) => ({
    agent: await tx.query(`select name, role, capabilities, instructions, backend, model, runtime, visibility from private.agents where id = $1`, [agentId]),
    places: await tx.query(`select workspace_id from public.workspace_agents where agent_id = $1 order by workspace_id`, [agentId]),
    keys: await tx.query(`select id, revoked_at from private.agent_api_keys where agent_id = $1 order by id`, [agentId]),
  }));
}

const agentRequest = (token: string) => new Request('http://localhost/api/agents/me', { headers: { authorization: `Bearer ${token}` } });

describe('Settings → Agents: members see, owners and admins manage', () => {
  it('shows every member the agents of the workspace, and only managers what they may change', async () => {
    const s = await salon();
    const nova = await createAgentIn(s.owner, s.team.id, {
      name: 'Nova',
      role: 'Receptionist',
      capabilities: ['bookings'],
      instructions: 'Answer booking questions. Never promise a discount.',
      workspaces: [s.team.id],
      ...offline,
    });
    expect(nova).toMatchObject({ ownerUserId: s.owner.id, instructions: 'Answer booking questions. Never promise a discount.', workspaceIds: [s.team.id] });

    const seenBy = async (user: SessionUser) => (await listAgentsIn(user, s.team.id)).map((a) => [a.name, a.manageable, a.workspaceIds]);
    expect(await seenBy(s.owner)).toEqual([['Nova', true, [s.team.id]]]);
    expect(await seenBy(s.admin)).toEqual([['Nova', true, [s.team.id]]]);
    // A member reads what it does (name, role, instructions, backend), but not where else it works.
    expect(await seenBy(s.member)).toEqual([['Nova', false, null]]);
    expect(await getAgentIn(s.member, s.team.id, nova.id)).toMatchObject({ instructions: 'Answer booking questions. Never promise a discount.', backend: 'offline', online: false });
    await expect(listAgentsIn(s.stranger, s.team.id)).rejects.toMatchObject({ status: 404 });
    await expect(getAgentIn(s.stranger, s.team.id, nova.id)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a member every change with 403 and writes nothing; a stranger gets 404', async () => {
    const s = await salon();
    const nova = await createAgentIn(s.owner, s.team.id, { name: 'Nova', workspaces: [s.team.id], ...offline });
    const { credential } = await createAgentKeyIn(s.owner, s.team.id, nova.id, { label: 'laptop' });
    const before = await snapshot(nova.id);
    const agentsBefore = await asService((tx) => tx.query(`select id from private.agents order by id`));

    for (const [who, status] of [
      [s.member, 403],
      [s.stranger, 404],
    ] as const) {
      await expect(createAgentIn(who, s.team.id, { name: 'Mine', workspaces: [s.team.id], ...offline })).rejects.toMatchObject({ status });
      await expect(updateAgentIn(who, s.team.id, nova.id, { instructions: 'Give everyone 50% off.' })).rejects.toMatchObject({ status });
      await expect(deleteAgentIn(who, s.team.id, nova.id)).rejects.toMatchObject({ status });
      await expect(listAgentKeysIn(who, s.team.id, nova.id)).rejects.toMatchObject({ status });
      await expect(createAgentKeyIn(who, s.team.id, nova.id, {})).rejects.toMatchObject({ status });
      await expect(revokeAgentKeyIn(who, s.team.id, nova.id, credential.id)).rejects.toMatchObject({ status });
    }
    await expect(updateAgentIn(s.member, s.team.id, nova.id, { name: 'Mine' })).rejects.toMatchObject({
      code: 'forbidden',
      message: 'Only the owner and admins can manage agents.',
    });
    // Nor can a member bring an agent of their own in through their own agents' API.
    await expect(createAgent(s.member, { name: 'Sneaky', workspaces: [s.team.id] })).rejects.toMatchObject({ status: 403 });
    expect(await snapshot(nova.id)).toEqual(before);
    expect(await asService((tx) => tx.query(`select id from private.agents order by id`))).toEqual(agentsBefore);
  });

  it('lets an admin manage an agent that works only where they manage, not one that also works elsewhere', async () => {
    const s = await salon();
    const pinned = await createAgentIn(s.owner, s.team.id, { name: 'Nova', workspaces: [s.team.id], ...offline });
    // Atlas follows the owner everywhere, their personal workspace included, which the admin does not manage.
    const everywhere = await createAgentIn(s.owner, s.team.id, { name: 'Atlas', workspaces: 'everywhere', ...offline });
    expect(everywhere.workspaceIds).toHaveLength(2);

    const changed = await updateAgentIn(s.admin, s.team.id, pinned.id, { role: 'Front desk', capabilities: ['bookings', 'waitlist'], model: null });
    expect(changed).toMatchObject({ role: 'Front desk', capabilities: ['bookings', 'waitlist'] });
    expect((await createAgentKeyIn(s.admin, s.team.id, pinned.id, { label: 'admin laptop' })).key).toMatch(/^mvk_/);
    // Where an agent works beyond the workspaces the admin manages is its owner's to choose.
    await expect(updateAgentIn(s.admin, s.team.id, pinned.id, { workspaces: 'everywhere' })).rejects.toMatchObject({ status: 403 });
    await expect(updateAgentIn(s.admin, s.team.id, pinned.id, { workspaces: 'personal' })).rejects.toMatchObject({ status: 403 });

    expect((await listAgentsIn(s.admin, s.team.id)).map((a) => [a.name, a.manageable])).toEqual([
      ['Atlas', false],
      ['Nova', true],
    ]);
    const atlasBefore = await snapshot(everywhere.id);
    await expect(updateAgentIn(s.admin, s.team.id, everywhere.id, { name: 'Hijacked' })).rejects.toMatchObject({ status: 403, message: expect.stringContaining('only its owner') });
    await expect(createAgentKeyIn(s.admin, s.team.id, everywhere.id, {})).rejects.toMatchObject({ status: 403 });
    await expect(deleteAgentIn(s.admin, s.team.id, everywhere.id)).rejects.toMatchObject({ status: 403 });
    expect(await snapshot(everywhere.id)).toEqual(atlasBefore);
    // Its owner still may, from a workspace they manage.
    expect(await updateAgentIn(s.owner, s.team.id, everywhere.id, { instructions: 'Plan the week.' })).toMatchObject({ instructions: 'Plan the week.' });
  });

  it('places an agent everywhere, in chosen workspaces, or in the personal one only', async () => {
    const s = await salon();
    const personal = (await listWorkspaces(s.owner)).find((w) => w.isPersonal)!;
    const agent = await createAgentIn(s.owner, s.team.id, { name: 'Iris', workspaces: 'personal', ...offline });
    expect(agent).toMatchObject({ visibility: 'pinned', workspaceIds: [personal.id] });
    // Not in this workspace's list, then; its owner still manages it from their personal workspace.
    expect(await listAgentsIn(s.owner, s.team.id)).toEqual([]);
    expect((await updateAgentIn(s.owner, personal.id, agent.id, { workspaces: [s.team.id, personal.id] })).workspaceIds.sort()).toEqual([s.team.id, personal.id].sort());
    expect((await updateAgentIn(s.owner, s.team.id, agent.id, { workspaces: 'everywhere' })).visibility).toBe('everywhere');
    // A workspace the owner only belongs to as a member cannot be chosen.
    const other = await createWorkspace(s.stranger, { name: 'Elsewhere' });
    await joinWorkspace(s.stranger, other.id, s.owner);
    await expect(updateAgentIn(s.owner, s.team.id, agent.id, { workspaces: [other.id] })).rejects.toMatchObject({ status: 403 });
  });

  it('runs a hosted agent only on a backend this server has, and says which; a local one brings its own', async () => {
    restoreEnv = useFakeModelEnv({ CLAUDE_CONFIG_DIR: '/nonexistent' });
    const s = await salon();
    await expect(createAgentIn(s.owner, s.team.id, { name: 'Nova', backend: 'anthropic', runtime: 'hosted', workspaces: [s.team.id] })).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('Anthropic API is not set up on this server'),
    });
    const local = await createAgentIn(s.owner, s.team.id, { name: 'Nova', backend: 'anthropic', model: 'claude-sonnet-4-6', runtime: 'local', workspaces: [s.team.id] });
    expect(local).toMatchObject({ backend: 'anthropic', model: 'claude-sonnet-4-6', runtime: 'local' });
    await expect(updateAgentIn(s.owner, s.team.id, local.id, { runtime: 'hosted' })).rejects.toMatchObject({ status: 422 });
    expect(await updateAgentIn(s.owner, s.team.id, local.id, { runtime: 'hosted', backend: 'offline', model: null })).toMatchObject({ runtime: 'hosted', backend: 'offline' });
  });
});

describe('agent keys from the Agents screen', () => {
  it('shows a key once, and a revoked key stops working at once, sessions made from it included', async () => {
    const s = await salon();
    const nova = await createAgentIn(s.admin, s.team.id, { name: 'Nova', workspaces: [s.team.id], ...offline });
    const { key, credential } = await createAgentKeyIn(s.admin, s.team.id, nova.id, { label: 'laptop' });
    expect(key).toMatch(/^mvk_/);
    // Listed by its prefix only: the secret is never read back.
    const listed = await listAgentKeysIn(s.owner, s.team.id, nova.id);
    expect(listed).toEqual([expect.objectContaining({ id: credential.id, prefix: key.slice(0, 12), label: 'laptop', revokedAt: null })]);
    expect(JSON.stringify(listed)).not.toContain(key);

    const session = await exchangeAgentCredential(key);
    expect(await requireAgent(agentRequest(session.token))).toMatchObject({ agentId: nova.id });

    const revoked = await revokeAgentKeyIn(s.owner, s.team.id, nova.id, credential.id);
    expect(revoked.revokedAt).not.toBeNull();
    await expect(exchangeAgentCredential(key)).rejects.toMatchObject({ status: 401 });
    await expect(requireAgent(agentRequest(session.token))).rejects.toMatchObject({ status: 401 });
    // A key of another agent is not this one's to revoke.
    const other = await createAgentIn(s.owner, s.team.id, { name: 'Atlas', workspaces: [s.team.id], ...offline });
    const otherKey = await createAgentKeyIn(s.owner, s.team.id, other.id, {});
    await expect(revokeAgentKeyIn(s.owner, s.team.id, nova.id, otherKey.credential.id)).rejects.toMatchObject({ status: 404 });
    expect((await exchangeAgentCredential(otherKey.key)).agentId).toBe(other.id);
  });

  it('deletes an agent everywhere: gone from the list and its conversations, its key refused, its messages kept', async () => {
    const s = await salon();
    const nova = await createAgentIn(s.owner, s.team.id, { name: 'Nova', workspaces: [s.team.id], ...offline });
    const { key } = await createAgentKeyIn(s.owner, s.team.id, nova.id, {});
    const { conversation } = await createConversation(s.owner, { kind: 'dm', workspaceId: s.team.id, agentIds: [nova.id] });
    await asService((tx) =>
      tx.query(`insert into public.messages (workspace_id, conversation_id, author_kind, author_agent_id, author_name, body) values ($1, $2, 'agent', $3, 'Nova', 'Hello')`, [
        s.team.id,
        conversation.id,
        nova.id,
      ]),
    );
    expect(await deleteAgentIn(s.owner, s.team.id, nova.id)).toEqual({ id: nova.id });
    expect(await listAgentsIn(s.owner, s.team.id)).toEqual([]);
    await expect(getAgentIn(s.owner, s.team.id, nova.id)).rejects.toMatchObject({ status: 404 });
    await expect(exchangeAgentCredential(key)).rejects.toMatchObject({ status: 401 });
    const [left] = await asService((tx) =>
      tx.query<{ members: number; messages: number }>(
        `select (select count(*)::int from public.conversation_members where agent_id = $1) as members,
                (select count(*)::int from public.messages where conversation_id = $2 and author_name = 'Nova') as messages`,
        [nova.id, conversation.id],
      ),
    );
    expect(left).toEqual({ members: 0, messages: 1 });
  });
});

type Handler = (req: Request, segment: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function call(handler: unknown, user: SessionUser | null, method: string, params: Record<string, string>, body?: unknown) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (user) headers.authorization = `Bearer ${await signAccessToken(user)}`;
  const response = await (handler as Handler)(new Request('http://test/api/workspaces/x/agents', { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }), {
    params: Promise.resolve(params),
  });
  return { status: response.status, body: (await response.json()) as { success: boolean; data: unknown; error: { code: string; message: string } | null } };
}

describe('the Agents API', () => {
  it('answers a member 403 in the envelope on every manage route, and a manager with the change', async () => {
    const s = await salon();
    const ws = { workspaceId: s.team.id };
    const created = await call(agentsRoute.POST, s.admin, 'POST', ws, { name: 'Nova', role: 'Receptionist', workspaces: [s.team.id], ...offline });
    expect(created.status).toBe(201);
    const agentId = (created.body.data as { id: string }).id;
    const keyMade = await call(keysRoute.POST, s.owner, 'POST', { ...ws, agentId }, { label: 'laptop' });
    expect(keyMade.status).toBe(201);
    const keyId = (keyMade.body.data as { credential: { id: string } }).credential.id;

    const forbidden = { success: false, data: null, error: { code: 'forbidden', message: 'Only the owner and admins can manage agents.' } };
    for (const [handler, method, params, body] of [
      [agentsRoute.POST, 'POST', ws, { name: 'Mine', ...offline }],
      [agentRoute.PATCH, 'PATCH', { ...ws, agentId }, { name: 'Mine' }],
      [agentRoute.DELETE, 'DELETE', { ...ws, agentId }, undefined],
      [keysRoute.GET, 'GET', { ...ws, agentId }, undefined],
      [keysRoute.POST, 'POST', { ...ws, agentId }, {}],
      [keyRoute.DELETE, 'DELETE', { ...ws, agentId, keyId }, undefined],
    ] as const) {
      expect(await call(handler, s.member, method, params, body)).toEqual({ status: 403, body: expect.objectContaining(forbidden) });
      expect((await call(handler, null, method, params, body)).status).toBe(401);
      expect((await call(handler, s.stranger, method, params, body)).status).toBe(404);
    }
    const listed = await call(agentsRoute.GET, s.member, 'GET', ws);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ name: 'Nova', manageable: false, workspaceIds: null })]);

    const patched = await call(agentRoute.PATCH, s.admin, 'PATCH', { ...ws, agentId }, { instructions: 'Confirm every booking by text.' });
    expect(patched).toMatchObject({ status: 200, body: { data: { instructions: 'Confirm every booking by text.' } } });
    expect((await call(agentRoute.PATCH, s.admin, 'PATCH', { ...ws, agentId }, { name: 'Bad@Name' })).status).toBe(422);
    expect((await call(keyRoute.DELETE, s.admin, 'DELETE', { ...ws, agentId, keyId })).status).toBe(200);
    expect((await call(agentRoute.DELETE, s.owner, 'DELETE', { ...ws, agentId })).status).toBe(200);
    expect((await call(agentRoute.GET, s.owner, 'GET', { ...ws, agentId })).status).toBe(404);
  });
});
