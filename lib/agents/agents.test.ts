import { afterEach, describe, expect, it, vi } from 'vitest';
import { signAccessToken } from '@/lib/auth';
import { asService } from '@/lib/db';
import { createWorkspace, listWorkspaces, removeMember } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser, joinWorkspace } from '@/test/fixtures';
import {
  createAgent,
  createAgentKey,
  exchangeAgentCredential,
  issueHostToken,
  listAgentKeys,
  listOwnAgents,
  listWorkspaceAgents,
  recordHeartbeat,
  requireAgent,
  revokeAgentKey,
  updateAgent,
} from '.';

setupTestDatabase();

afterEach(() => {
  vi.useRealTimers();
});


const agentRequest = (headers: Record<string, string>) => new Request('http://localhost/api/agents/me', { headers });

describe('agents belong to a person and follow them into their workspaces', () => {
  it('shows a new agent in every workspace of its owner, including ones joined later, and nowhere else', async () => {
    const owner = await createUser('owner');
    const coworker = await createUser('coworker');
    const stranger = await createUser('stranger');
    const team = await createWorkspace(coworker, { name: 'Team' });
    await joinWorkspace(coworker, team.id, owner);
    const nova = await createAgent(owner, { name: 'Nova', role: 'Bookkeeper', capabilities: ['Invoices', 'invoices', 'Payroll'] });
    expect(nova).toMatchObject({ visibility: 'everywhere', runtime: 'hosted', backend: 'claude-code', capabilities: ['invoices', 'payroll'] });
    const personal = (await listWorkspaces(owner)).find((w) => w.isPersonal)!;
    expect(new Set(nova.workspaceIds)).toEqual(new Set([personal.id, team.id]));
    // Coworkers see it where they share a workspace with its owner: one identity, not a copy.
    expect((await listWorkspaceAgents(coworker, team.id)).map((a) => a.id)).toEqual([nova.id]);
    await expect(listWorkspaceAgents(stranger, team.id)).rejects.toMatchObject({ status: 404 });

    const later = await createWorkspace(stranger, { name: 'Later' });
    await joinWorkspace(stranger, later.id, owner);
    expect((await listWorkspaceAgents(stranger, later.id)).map((a) => a.name)).toEqual(['Nova']);
    // Leaving takes it away again.
    await removeMember(stranger, later.id, owner.id);
    expect(await listWorkspaceAgents(stranger, later.id)).toEqual([]);
  });

  it('pins an agent to chosen workspaces (or just the personal one); pinned agents do not follow into new ones', async () => {
    const owner = await createUser('owner');
    const other = await createUser('other');
    const team = await createWorkspace(owner, { name: 'Team' });
    const personal = (await listWorkspaces(owner)).find((w) => w.isPersonal)!;
    const iris = await createAgent(owner, { name: 'Iris', workspaces: [team.id] });
    expect(iris).toMatchObject({ visibility: 'pinned', workspaceIds: [team.id] });
    const moved = await updateAgent(owner, iris.id, { workspaces: [personal.id] });
    expect(moved.workspaceIds).toEqual([personal.id]);
    expect(await listWorkspaceAgents(owner, team.id)).toEqual([]);
    const third = await createWorkspace(other, { name: 'Third' });
    await joinWorkspace(other, third.id, owner);
    expect(await listWorkspaceAgents(owner, third.id)).toEqual([]);
    expect((await updateAgent(owner, iris.id, { workspaces: 'everywhere' })).workspaceIds).toHaveLength(3);
    // Only the owner's own workspaces; only the owner edits.
    const foreign = await createWorkspace(other, { name: 'Foreign' });
    await expect(updateAgent(owner, iris.id, { workspaces: [foreign.id] })).rejects.toMatchObject({ status: 422 });
    await expect(updateAgent(other, iris.id, { name: 'Mine' })).rejects.toMatchObject({ status: 404 });
    await expect(createAgent(owner, { name: 'iris' })).rejects.toMatchObject({ status: 409 });
    await expect(createAgent(owner, { name: 'Bad@Name' })).rejects.toMatchObject({ status: 422 });
    expect((await listOwnAgents(owner)).map((a) => a.name)).toEqual(['Iris']);
  });

  it('shows an agent online while its heartbeats are recent', async () => {
    const owner = await createUser('owner');
    const agent = await createAgent(owner, { name: 'Atlas' });
    const workspaceId = agent.workspaceIds[0]!;
    expect((await listWorkspaceAgents(owner, workspaceId))[0]!.online).toBe(false);
    await recordHeartbeat(agent.id, 'laptop-1');
    expect((await listWorkspaceAgents(owner, workspaceId))[0]).toMatchObject({ online: true });
    await asService((tx) => tx.query(`update private.agent_connections set last_heartbeat_at = now() - interval '4 minutes'`));
    expect((await listWorkspaceAgents(owner, workspaceId))[0]!.online).toBe(false);
  });
});

describe('agent authentication', () => {
  it('exchanges the key for a 15-minute session token, the only credential other endpoints accept', async () => {
    const owner = await createUser('owner');
    const agent = await createAgent(owner, { name: 'Nova', runtime: 'local' });
    const { key, credential } = await createAgentKey(owner, agent.id, 'laptop');
    expect(key).toMatch(/^mvk_/);
    expect(credential).toMatchObject({ kind: 'key', label: 'laptop', prefix: key.slice(0, 12), revokedAt: null });
    const [stored] = await asService((tx) => tx.query<{ key_hash: string }>(`select key_hash from private.agent_api_keys where id = $1`, [credential.id]));
    expect(stored!.key_hash).not.toContain(key);

    const session = await exchangeAgentCredential(key);
    expect(session.agentId).toBe(agent.id);
    expect(session.expiresAt.getTime() - Date.now()).toBeGreaterThan(14 * 60 * 1000);
    expect((await listAgentKeys(owner, agent.id))[0]!.lastUsedAt).not.toBeNull();
    expect(await requireAgent(agentRequest({ authorization: `Bearer ${session.token}` }))).toMatchObject({ agentId: agent.id });

    // The key itself is refused everywhere but the exchange, in either header.
    await expect(requireAgent(agentRequest({ 'x-agent-key': key }))).rejects.toMatchObject({ status: 401, message: expect.stringContaining('exchange') });
    await expect(requireAgent(agentRequest({ authorization: `Bearer ${key}` }))).rejects.toMatchObject({ status: 401 });
    // A person's access token is not an agent session.
    const personToken = await signAccessToken(owner);
    await expect(requireAgent(agentRequest({ authorization: `Bearer ${personToken}` }))).rejects.toMatchObject({ status: 401 });
    await expect(exchangeAgentCredential('mvk_not-a-key')).rejects.toMatchObject({ status: 401 });
  });

  it('refuses an expired session token', async () => {
    const owner = await createUser('owner');
    const agent = await createAgent(owner, { name: 'Nova' });
    const { key } = await createAgentKey(owner, agent.id);
    const { token } = await exchangeAgentCredential(key);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 16 * 60 * 1000);
    await expect(requireAgent(agentRequest({ authorization: `Bearer ${token}` }))).rejects.toMatchObject({ status: 401 });
  });

  it('refuses a revoked key at the exchange, and the sessions it produced at once', async () => {
    const owner = await createUser('owner');
    const agent = await createAgent(owner, { name: 'Nova' });
    const { key, credential } = await createAgentKey(owner, agent.id);
    const { token } = await exchangeAgentCredential(key);
    expect((await revokeAgentKey(owner, agent.id, credential.id)).revokedAt).not.toBeNull();
    await expect(exchangeAgentCredential(key)).rejects.toMatchObject({ status: 401 });
    await expect(requireAgent(agentRequest({ authorization: `Bearer ${token}` }))).rejects.toMatchObject({ status: 401 });
    const stranger = await createUser('stranger');
    await expect(createAgentKey(stranger, agent.id)).rejects.toMatchObject({ status: 404 });
  });

  it('gives hosted runners a host token good only for the exchange, while the agent runs hosted', async () => {
    const owner = await createUser('owner');
    const hosted = await createAgent(owner, { name: 'Hosted', runtime: 'hosted' });
    const local = await createAgent(owner, { name: 'Local', runtime: 'local' });
    await expect(issueHostToken(local.id, 'host-1')).rejects.toMatchObject({ status: 409 });

    const host = await issueHostToken(hosted.id, 'host-1');
    expect(host.token).toMatch(/^mvh_/);
    await expect(requireAgent(agentRequest({ authorization: `Bearer ${host.token}` }))).rejects.toMatchObject({ status: 401 });
    const session = await exchangeAgentCredential(host.token);
    expect(await requireAgent(agentRequest({ authorization: `Bearer ${session.token}` }))).toMatchObject({ agentId: hosted.id });

    const expired = await issueHostToken(hosted.id, 'host-1', 60);
    await asService((tx) => tx.query(`update private.agent_api_keys set expires_at = now() - interval '1 second' where prefix = $1`, [expired.token.slice(0, 12)]));
    await expect(exchangeAgentCredential(expired.token)).rejects.toMatchObject({ status: 401 });

    // Moving to local ends the host assignment: its tokens stop working.
    await updateAgent(owner, hosted.id, { runtime: 'local' });
    await expect(exchangeAgentCredential(host.token)).rejects.toMatchObject({ status: 401 });
    await expect(requireAgent(agentRequest({ authorization: `Bearer ${session.token}` }))).rejects.toMatchObject({ status: 401 });
  });
});
