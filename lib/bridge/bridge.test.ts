import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, revokeAgentKey } from '@/lib/agents';
import { announceClaimableDeliveries, createConversation, getConversation, listMessages, sendMessage, type Message } from '@/lib/chat';
import { chatWorld } from '@/lib/chat/test-world';
import { asService } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { waitFor } from '@/test/wait';
import { createUser } from '@/test/fixtures';
import { AgentBridge, type BridgeEvent, type TurnRunner } from './bridge';
import { inProcessFetch, IN_PROCESS_URL } from '@/server/agent-api';
import { gatewayRegistry } from './registry';
import { createTurnRunner } from './turn';

setupTestDatabase();

const bridges: AgentBridge[] = [];
afterEach(async () => {
  await Promise.all(bridges.splice(0).map((b) => b.stop({ graceMs: 1000 })));
});

/**
 * The network between a bridge and the app, which the test can cut: while down, every request fails
 * and open event streams are dropped, as when a laptop loses Wi-Fi.
 */
function cuttableNetwork() {
  let down = false;
  const streams = new Set<AbortController>();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (down) throw new TypeError('fetch failed: network is down');
    const controller = new AbortController();
    const signal = init?.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
    streams.add(controller);
    try {
      return await inProcessFetch(input, { ...init, signal });
    } finally {
      if (!String(input).endsWith('/events')) streams.delete(controller);
    }
  };
  return {
    fetch,
    cut() {
      down = true;
      for (const c of streams) c.abort();
      streams.clear();
    },
    restore() {
      down = false;
    },
  };
}

/** A scripted turn: answers every message with "re: <body>", remembering the order it saw them in. */
function echo(seen: number[]): TurnRunner {
  return async ({ delivery }) => {
    seen.push(delivery.message.seq);
    return { kind: 'reply', body: `re: ${delivery.message.body}` };
  };
}

function startBridge(options: Partial<ConstructorParameters<typeof AgentBridge>[0]> & { credential: () => Promise<string>; runTurn: TurnRunner }) {
  const events: BridgeEvent[] = [];
  const bridge = new AgentBridge({
    url: IN_PROCESS_URL,
    fetch: inProcessFetch,
    backoff: { initialMs: 50, maxMs: 200 },
    onEvent: (e) => events.push(e),
    ...options,
  }).start();
  bridges.push(bridge);
  return { bridge, events };
}

const leaseHolders = (agentId: string) =>
  asService((tx) => tx.query<{ lease_owner: string }>(`select lease_owner from private.deliveries where agent_id = $1 and status = 'claimed'`, [agentId])).then(
    (rows) => rows.map((r) => r.lease_owner),
  );

const bodies = (messages: Message[]) => messages.map((m) => `${m.author.kind}:${m.body}`);

async function dmWithAgent() {
  const owner = await createUser('owner');
  const agent = await createAgent(owner, { name: 'Nova', runtime: 'local', backend: 'offline' });
  const { key, credential } = await createAgentKey(owner, agent.id, 'laptop');
  const { conversation } = await createConversation(owner, { kind: 'dm', workspaceId: agent.workspaceIds[0]!, agentIds: [agent.id] });
  const say = (body: string) => sendMessage({ kind: 'person', user: owner }, conversation.id, body);
  const history = async () => (await listMessages(owner, conversation.id)).messages;
  return { owner, agent, key, credentialId: credential.id, dm: conversation, say, history };
}

describe('the bridge', () => {
  it('answers live, and after its network comes back it answers what was sent meanwhile, in order', async () => {
    const { agent, key, say, history } = await dmWithAgent();
    const network = cuttableNetwork();
    const seen: number[] = [];
    const { bridge, events } = startBridge({ credential: async () => key, runTurn: echo(seen), fetch: network.fetch });
    await waitFor(async () => events.some((e) => e.type === 'connected'), 'the bridge to connect');
    expect((await gatewayRegistry()).find((g) => g.agentId === agent.id)).toMatchObject({ online: true, connections: [{ connectionId: bridge.connectionId }] });

    await say('one');
    await waitFor(async () => (await history()).length === 2, 'the live answer');

    network.cut();
    await waitFor(async () => events.some((e) => e.type === 'disconnected'), 'the bridge to notice');
    await say('two');
    await say('three');
    await say('four');
    expect(bodies(await history()).slice(2)).toEqual(['person:two', 'person:three', 'person:four']);

    network.restore();
    const all = await waitFor(async () => {
      const messages = await history();
      return messages.length === 8 && messages;
    }, 'the catch-up');
    expect(bodies(all)).toEqual(['person:one', 'agent:re: one', 'person:two', 'person:three', 'person:four', 'agent:re: two', 'agent:re: three', 'agent:re: four']);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen).toHaveLength(4);
  });

  it('catches up when a stopped bridge is started again (a new connection)', async () => {
    const { key, say, history } = await dmWithAgent();
    const first = startBridge({ credential: async () => key, runTurn: echo([]) });
    await waitFor(async () => first.events.some((e) => e.type === 'connected'), 'the first connection');
    await first.bridge.stop();

    for (const n of [1, 2, 3]) await say(`while away ${n}`);
    const seen: number[] = [];
    const second = startBridge({ credential: async () => key, runTurn: echo(seen) });
    expect(second.bridge.connectionId).not.toBe(first.bridge.connectionId);
    const all = await waitFor(async () => {
      const messages = await history();
      return messages.length === 6 && messages;
    }, 'the catch-up');
    expect(bodies(all).slice(3)).toEqual(['agent:re: while away 1', 'agent:re: while away 2', 'agent:re: while away 3']);
    expect(seen).toHaveLength(3);
  });

  it('passes when a turn fails, so the next agent in line answers', async () => {
    const w = await chatWorld();
    const keyOf = async (agent: { id: string }, owner = w.owner) => (await createAgentKey(owner, agent.id)).key;
    const atlasKey = await keyOf(w.atlas);
    const failing = startBridge({ credential: async () => atlasKey, runTurn: async () => Promise.reject(new Error('model down')) });
    const novaKey = await keyOf(w.nova);
    startBridge({ credential: async () => novaKey, runTurn: echo([]) });
    // Atlas (the generalist) is first for a message nobody is addressed in; it fails and passes to Nova.
    await sendMessage(w.person(w.owner), w.channel.id, 'good morning');
    const messages = await waitFor(async () => {
      const { messages } = await listMessages(w.owner, w.channel.id);
      return messages.length === 2 && messages;
    }, 'the next agent to answer');
    expect(messages[1]).toMatchObject({ author: { name: 'Nova' }, body: 're: good morning' });
    expect(failing.events.some((e) => e.type === 'failed')).toBe(true);
  });

  it('keeps its delivery through a turn longer than the lease: another connection of the agent does not get it', async () => {
    const { owner, agent, key, say, history } = await dmWithAgent();
    const { conversation: channel } = await createConversation(owner, { kind: 'channel', workspaceId: agent.workspaceIds[0]!, name: 'ops', agentIds: [agent.id] });
    const handledBy: string[] = [];
    let finishLongTurn!: () => void;
    const longTurnStarted = new Promise<void>((started) => {
      const released = new Promise<void>((resolve) => (finishLongTurn = resolve));
      const slow: TurnRunner = async ({ delivery }) => {
        handledBy.push(`slow:${delivery.message.body}`);
        started();
        await released;
        return { kind: 'reply', body: `re: ${delivery.message.body}` };
      };
      const first = startBridge({ credential: async () => key, runTurn: slow, leaseSeconds: 5 });
      void waitFor(async () => first.events.some((e) => e.type === 'connected'), 'the first connection').then(() => say('a long question'));
    });
    await longTurnStarted;
    const other: TurnRunner = async ({ delivery }) => {
      handledBy.push(`other:${delivery.message.body}`);
      return { kind: 'reply', body: `re: ${delivery.message.body}` };
    };
    const second = startBridge({ credential: async () => key, runTurn: other, leaseSeconds: 5 });
    await waitFor(async () => second.events.some((e) => e.type === 'connected'), 'the second connection');
    // Past the first lease, new work wakes both connections: the second takes only the new message.
    await new Promise((resolve) => setTimeout(resolve, 6500));
    await sendMessage({ kind: 'person', user: owner }, channel.id, 'a quick one');
    await waitFor(async () => (await listMessages(owner, channel.id)).messages.length === 2, 'the quick answer');
    finishLongTurn();
    const dm = await waitFor(async () => {
      const messages = await history();
      return messages.length === 2 && messages;
    }, 'the long answer');
    expect(bodies(dm)).toEqual(['person:a long question', 'agent:re: a long question']);
    expect(handledBy).toEqual(['slow:a long question', 'other:a quick one']);
  });

  it('hands the delivery of a connection that died mid-turn to a live one once its lease runs out and is announced', async () => {
    const { agent, key, say, history } = await dmWithAgent();
    const hanging: TurnRunner = ({ signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    const dying = startBridge({ credential: async () => key, runTurn: hanging, leaseSeconds: 5 });
    await waitFor(async () => dying.events.some((e) => e.type === 'connected'), 'the first connection');
    await say('are you there?');
    await waitFor(async () => (await leaseHolders(agent.id)).includes(dying.bridge.connectionId), 'the first connection to claim');
    const live = startBridge({ credential: async () => key, runTurn: echo([]), leaseSeconds: 5 });
    await waitFor(async () => live.events.some((e) => e.type === 'connected'), 'the second connection');
    // Killed mid-turn: nothing is answered and its lease stops being extended.
    await dying.bridge.stop({ graceMs: 0 });
    await new Promise((resolve) => setTimeout(resolve, 5500));
    expect(await history()).toHaveLength(1);
    // The minute's sweep tells the agent's connections; the live one claims and answers.
    expect(await announceClaimableDeliveries()).toContain(agent.id);
    const messages = await waitFor(async () => {
      const messages = await history();
      return messages.length === 2 && messages;
    }, 'the live connection to answer');
    expect(bodies(messages)).toEqual(['person:are you there?', 'agent:re: are you there?']);
  });

  it('stops for good when its key is revoked', async () => {
    const { owner, agent, key, credentialId, say } = await dmWithAgent();
    const { bridge, events } = startBridge({ credential: async () => key, runTurn: echo([]) });
    await waitFor(async () => events.some((e) => e.type === 'connected'), 'the bridge to connect');
    await revokeAgentKey(owner, agent.id, credentialId);
    // Its session died with the key: the next claim is refused, and so is the exchange after it.
    await say('anyone there?');
    await bridge.done;
    expect(events.at(-1)).toMatchObject({ type: 'stopped', error: expect.objectContaining({ message: expect.stringContaining('not valid') }) });
  });
});

describe('agents on the offline model, through their bridges', () => {
  it('opens a side thread when asked, gets the answer there and resolves it back into the channel', async () => {
    const w = await chatWorld();
    // The world's agents default to claude-code; these run on the offline model.
    const runTurn = createTurnRunner({ backend: 'offline' });
    for (const agent of [w.nova, w.atlas]) {
      const { key } = await createAgentKey(w.owner, agent.id);
      startBridge({ credential: async () => key, runTurn });
    }
    const asked = await sendMessage(w.person(w.owner), w.channel.id, '@Nova ask Atlas: are we open on Sunday?');
    const channel = await waitFor(async () => {
      const { messages } = await listMessages(w.owner, w.channel.id);
      return messages.length === 3 && messages;
    }, 'the resolution in the channel');
    const [, opened, resolution] = channel;
    expect(opened).toMatchObject({ author: { name: 'Nova' }, body: 'I asked Atlas in a side thread.' });
    const threadId = opened!.sideThreads[0]!.id;
    expect(resolution).toMatchObject({ author: { name: 'Nova' }, payload: { resolvesThread: threadId } });
    expect(resolution!.body).toMatch(/^Atlas answered: “Received: “are we open on Sunday\?”/);
    expect(await getConversation(w.owner, threadId)).toMatchObject({ kind: 'thread', status: 'resolved', parentMessageId: opened!.id });
    const thread = (await listMessages(w.owner, threadId)).messages;
    expect(thread.map((m) => m.author.name)).toEqual(['Nova', 'Atlas']);
    expect(thread[0]!.body).toBe('are we open on Sunday?');
    expect(asked.turns.map((t) => t.agentId)).toEqual([w.nova.id]);
  });

  it('delegates from a DM and relays only the result back', async () => {
    const w = await chatWorld();
    // The world's agents default to claude-code; these run on the offline model.
    const runTurn = createTurnRunner({ backend: 'offline' });
    for (const agent of [w.nova, w.atlas]) {
      const { key } = await createAgentKey(w.owner, agent.id);
      startBridge({ credential: async () => key, runTurn });
    }
    const { conversation: dm } = await createConversation(w.owner, { kind: 'dm', workspaceId: w.team.id, agentIds: [w.nova.id] });
    await sendMessage(w.person(w.owner), dm.id, 'ask Atlas: book the team dinner');
    const messages = await waitFor(async () => {
      const { messages } = await listMessages(w.owner, dm.id);
      return messages.length === 3 && messages;
    }, 'the relayed result');
    expect(bodies(messages)).toEqual([
      'person:ask Atlas: book the team dinner',
      'agent:I asked Atlas in a separate conversation and will bring the answer back here.',
      expect.stringMatching(/^agent:Atlas answered: “Nova Received: “Atlas book the team dinner”/),
    ]);
    // The DM gained no members; the work happened in a conversation of its own.
    expect((await getConversation(w.owner, dm.id)).members.map((m) => m.name)).toEqual(['owner', 'Nova']);
  });
});
