import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, updateAgent } from '@/lib/agents';
import { createConversation, listMessages, sendMessage } from '@/lib/chat';
import { inProcessFetch, IN_PROCESS_URL } from '@/server/agent-api';
import { setupTestDatabase } from '@/test/db';
import { waitFor } from '@/test/wait';
import { createUser } from '@/test/fixtures';
import { gatewayRegistry } from './registry';
import { HostedSupervisor, type SupervisorEvent } from './supervisor';

setupTestDatabase();

let supervisor: HostedSupervisor | undefined;
afterEach(async () => {
  await supervisor?.stop();
  supervisor = undefined;
});

/** Each agent's `starting` must come after the previous agent's `reachable`: one at a time. */
function expectOneAtATime(events: SupervisorEvent[], agentIds: string[]) {
  expect(events.filter((e) => e.type === 'starting' || e.type === 'reachable').map((e) => `${e.type}:${e.agentId}`)).toEqual(
    agentIds.flatMap((id) => [`starting:${id}`, `reachable:${id}`]),
  );
}

describe('the hosted runner', () => {
  it('brings a host’s agents up one at a time, each reachable before the next, and again on restart', async () => {
    const owner = await createUser('owner');
    const agents = [];
    for (const name of ['Nova', 'Atlas', 'Iris']) agents.push(await createAgent(owner, { name, runtime: 'hosted', backend: 'offline' }));
    await createAgent(owner, { name: 'Laptop', runtime: 'local', backend: 'offline' });
    const ids = agents.map((a) => a.id);

    const events: SupervisorEvent[] = [];
    const runningWhenStarting = new Map<string, string[]>();
    supervisor = new HostedSupervisor({
      host: 'host-1',
      fetch: inProcessFetch,
      url: IN_PROCESS_URL,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'starting') runningWhenStarting.set(e.agentId, supervisor!.running());
      },
      bridge: { backoff: { initialMs: 50, maxMs: 200 } },
    });
    await supervisor.start();
    expectOneAtATime(events, ids);
    expect(new Set(supervisor.running())).toEqual(new Set(ids));
    const registry = await gatewayRegistry();
    expect(registry.filter((g) => g.online).map((g) => g.name).sort()).toEqual(['Atlas', 'Iris', 'Nova']);

    // A restart takes one agent at a time: stopped, started and reachable before the next is
    // touched, while the others keep running.
    events.length = 0;
    runningWhenStarting.clear();
    await supervisor.restart();
    expect(events.map((e) => `${e.type}:${e.agentId}`)).toEqual(ids.flatMap((id) => [`stopped:${id}`, `starting:${id}`, `reachable:${id}`]));
    for (const id of ids) expect(new Set(runningWhenStarting.get(id))).toEqual(new Set(ids.filter((other) => other !== id)));
    // Each agent has exactly one live connection: the old ones were forgotten on the way down.
    for (const entry of (await gatewayRegistry()).filter((g) => ids.includes(g.agentId))) expect(entry.connections).toHaveLength(1);
  });

  it('runs the turns of a hosted agent created later, and lets go of one moved to local', async () => {
    const owner = await createUser('owner');
    const events: SupervisorEvent[] = [];
    supervisor = new HostedSupervisor({ host: 'host-1', fetch: inProcessFetch, url: IN_PROCESS_URL, onEvent: (e) => events.push(e), bridge: { backoff: { initialMs: 50, maxMs: 200 } } });
    await supervisor.start();
    const before = supervisor.running();

    // Its first delivery brings it up: no need to wait for the periodic check.
    const nova = await createAgent(owner, { name: 'Nova', runtime: 'hosted', backend: 'offline' });
    const { conversation } = await createConversation(owner, { kind: 'dm', workspaceId: nova.workspaceIds[0]!, agentIds: [nova.id] });
    await sendMessage({ kind: 'person', user: owner }, conversation.id, 'hello');
    const messages = await waitFor(async () => {
      const { messages } = await listMessages(owner, conversation.id);
      return messages.length === 2 && messages;
    }, 'the hosted agent to answer');
    expect(messages[1]).toMatchObject({ author: { name: 'Nova' }, body: expect.stringContaining('offline model') });

    // Moved to local: its host token stops working, so its bridge stops.
    await updateAgent(owner, nova.id, { runtime: 'local' });
    await sendMessage({ kind: 'person', user: owner }, conversation.id, 'still there?');
    await waitFor(async () => events.some((e) => e.type === 'stopped' && e.agentId === nova.id), 'the bridge to stop');
    expect(supervisor.running()).toEqual(before);
  });
});
