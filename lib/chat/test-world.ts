// Test support only (imported by *.test.ts): a team with people, agents and a channel.
import { createAgent, createAgentKey, exchangeAgentCredential, verifyAgentSession, type AgentSession } from '@/lib/agents';
import { asService, type SessionUser } from '@/lib/db';
import { createWorkspace } from '@/lib/workspaces';
import { createUser, joinWorkspace } from '@/test/fixtures';
import { createConversation } from './conversations';
import type { Actor } from './pipeline';

export async function chatWorld() {
  const [owner, coworker, stranger] = await Promise.all([createUser('owner'), createUser('coworker'), createUser('stranger')]);
  const team = await createWorkspace(owner!, { name: 'Studio' });
  await joinWorkspace(owner!, team.id, coworker!);
  // Atlas declares no domain: the generalist. Nova and Iris are specialists; Iris belongs to the coworker.
  const atlas = await createAgent(owner!, { name: 'Atlas', role: 'Chief of staff' });
  const nova = await createAgent(owner!, { name: 'Nova', role: 'Bookkeeper', capabilities: ['invoices', 'refunds', 'payroll'] });
  const iris = await createAgent(coworker!, { name: 'Iris', role: 'Marketer', capabilities: ['instagram', 'newsletter'] });
  const { conversation: channel } = await createConversation(owner!, {
    kind: 'channel',
    workspaceId: team.id,
    name: 'general',
    userIds: [coworker!.id],
    agentIds: [atlas.id, nova.id, iris.id],
  });
  const as = (agent: { id: string }): Actor => ({ kind: 'agent', agentId: agent.id });
  const person = (user: typeof owner): Actor => ({ kind: 'person', user: user! });
  return { owner: owner!, coworker: coworker!, stranger: stranger!, team, atlas, nova, iris, channel, as, person };
}

export async function deliveriesOf(messageId: string) {
  return asService((tx) =>
    tx.query<{ agent_id: string; turn: number; status: string; outcome: string | null }>(
      `select agent_id, turn, status, outcome from private.deliveries where message_id = $1 order by turn, seq`,
      [messageId],
    ),
  );
}

/** A live session of the owner's agent, as a connection gets it from the exchange; `keyId` revokes it. */
export async function agentSession(owner: SessionUser, agentId: string): Promise<AgentSession & { keyId: string }> {
  const { key, credential } = await createAgentKey(owner, agentId);
  const session = await verifyAgentSession((await exchangeAgentCredential(key)).token);
  return { ...session!, keyId: credential.id };
}
