import { describe, expect, it } from 'vitest';
import { updateAgent } from '@/lib/agents';
import { asService } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import {
  abandonStalledThreads,
  claimDeliveries,
  completeDelivery,
  createConversation,
  decideTurns,
  getConversation,
  listMessages,
  LOOP_LIMITS,
  resolveThread,
  sendMessage,
} from '.';
import { chatWorld, deliveriesOf } from './test-world';

setupTestDatabase();

const messageCount = (conversationId: string) =>
  asService((tx) => tx.query<{ n: number }>(`select count(*)::int as n from public.messages where conversation_id = $1`, [conversationId])).then(
    ([r]) => r!.n,
  );

describe('turn order', () => {
  const atlas = { agentId: 'atlas', role: 'Chief of staff', capabilities: [] };
  const nova = { agentId: 'nova', role: 'Bookkeeper', capabilities: ['invoices', 'refunds'] };
  const iris = { agentId: 'iris', role: 'Marketer', capabilities: ['instagram', 'newsletter'] };
  const candidates = [nova, atlas, iris];
  const order = (text: string, addressed: string[] = [], authorKind: 'person' | 'agent' = 'person') =>
    decideTurns({ text, authorKind, addressed, candidates }).map((t) => `${t.agentId}:${t.reason}`);

  it('lets an addressed agent answer first and alone', () => {
    expect(order('what about the invoices?', ['iris'])).toEqual(['iris:addressed']);
    expect(order('both of you', ['iris', 'nova'])).toEqual(['iris:addressed', 'nova:addressed']);
  });

  it('gives a narrow single-domain question to the best specialist before the generalist', () => {
    expect(order('Can you send the refunds for last week’s invoices?')).toEqual(['nova:specialist', 'atlas:generalist', 'iris:fallback']);
    // The role is a declared domain too.
    expect(order('a question for the marketer')).toEqual(['iris:specialist', 'atlas:generalist', 'nova:fallback']);
  });

  it('gives a cross-domain question to the generalist first', () => {
    expect(order('Plan the newsletter about the refunds')).toEqual(['atlas:generalist', 'nova:specialist', 'iris:specialist']);
  });

  it('falls back to a fixed order when nothing matches: never silence', () => {
    expect(order('good morning!')).toEqual(['atlas:fallback', 'nova:fallback', 'iris:fallback']);
    expect(order('good morning!')).toEqual(order('good morning!'));
  });

  it('lets an agent wake only the agents it addresses', () => {
    expect(order('good morning!', [], 'agent')).toEqual([]);
    expect(order('@nova over to you', ['nova'], 'agent')).toEqual(['nova:addressed']);
  });
});

describe('sending through the one pipeline', () => {
  it('queues the turns of a person’s message: the first claimable, the rest waiting, a pass hands over', async () => {
    const w = await chatWorld();
    const sent = await sendMessage(w.person(w.owner), w.channel.id, 'Please check the invoices from March');
    expect(sent.turns.map((t) => [t.agentId, t.reason])).toEqual([
      [w.nova.id, 'specialist'],
      [w.atlas.id, 'generalist'],
      [w.iris.id, 'fallback'],
    ]);
    expect((await deliveriesOf(sent.id)).map((d) => d.status)).toEqual(['pending', 'waiting', 'waiting']);

    const [novaWork] = await claimDeliveries(w.nova.id, 'nova-1');
    expect(novaWork).toMatchObject({ conversationId: w.channel.id, turn: 0, message: { id: sent.id, authorKind: 'person' } });
    await completeDelivery(w.nova.id, 'nova-1', novaWork!.id, { outcome: 'passed' });
    expect((await deliveriesOf(sent.id)).map((d) => d.status)).toEqual(['done', 'pending', 'waiting']);

    // Atlas answers, with its reply completing its delivery in the same transaction: Iris is not asked.
    const [atlasWork] = await claimDeliveries(w.atlas.id, 'atlas-1');
    await sendMessage(w.as(w.atlas), w.channel.id, 'Done: all March invoices are paid.', {
      replyTo: { deliveryId: atlasWork!.id, connectionId: 'atlas-1' },
    });
    expect((await deliveriesOf(sent.id)).map((d) => [d.status, d.outcome])).toEqual([
      ['done', 'passed'],
      ['done', 'replied'],
      ['skipped', null],
    ]);
  });

  it('extracts mentions, and an agent’s message wakes only who it mentions', async () => {
    const w = await chatWorld();
    const sent = await sendMessage(w.person(w.owner), w.channel.id, '@Iris and @nova: thoughts?');
    expect(sent.mentions.map((m) => m.name)).toEqual(['Iris', 'Nova']);
    expect(sent.turns.map((t) => t.agentId)).toEqual([w.iris.id, w.nova.id]);
    const quiet = await sendMessage(w.as(w.iris), w.channel.id, 'I will look into it.');
    expect(quiet.turns).toEqual([]);
    const handOff = await sendMessage(w.as(w.iris), w.channel.id, '@Atlas can you take this?');
    expect(handOff.turns.map((t) => t.agentId)).toEqual([w.atlas.id]);
  });

  it('refuses writers who cannot see the conversation, and agents that are not members', async () => {
    const w = await chatWorld();
    await expect(sendMessage(w.person(w.stranger), w.channel.id, 'hi')).rejects.toMatchObject({ status: 404 });
    const { conversation: dm } = await createConversation(w.owner, { kind: 'dm', workspaceId: w.team.id, agentIds: [w.nova.id] });
    await expect(sendMessage(w.as(w.iris), dm.id, 'let me in')).rejects.toMatchObject({ status: 404 });
    await expect(sendMessage(w.person(w.coworker), dm.id, 'let me in')).rejects.toMatchObject({ status: 404 });
    await expect(sendMessage(w.person(w.owner), dm.id, '   ')).rejects.toMatchObject({ status: 422 });
  });
});

describe('loop guards', () => {
  it('pauses agents after 6 consecutive agent messages in a group until a person writes', async () => {
    const w = await chatWorld();
    const results = [];
    for (let i = 0; i < 6; i++) {
      const [from, to] = i % 2 === 0 ? [w.atlas, 'Nova'] : [w.nova, 'Atlas'];
      results.push(await sendMessage(w.as(from), w.channel.id, `@${to} round ${i + 1}`));
    }
    expect(results.slice(0, 5).every((r) => r.turns.length === 1 && !r.agentsPaused)).toBe(true);
    expect(results[5]).toMatchObject({ agentsPaused: true, turns: [] });
    // Still paused for agents' messages; a person's message resumes them.
    expect(await sendMessage(w.as(w.atlas), w.channel.id, '@Nova again')).toMatchObject({ agentsPaused: true, turns: [] });
    const person = await sendMessage(w.person(w.owner), w.channel.id, '@Nova go on');
    expect(person).toMatchObject({ agentsPaused: false });
    expect(person.turns.map((t) => t.agentId)).toEqual([w.nova.id]);
    expect((await getConversation(w.owner, w.channel.id)).agentsPaused).toBe(false);
  });

  it('gives agents the whole limit again once a person writes, not just one more message', async () => {
    const w = await chatWorld();
    const exchange = async () => {
      const results = [];
      for (let i = 0; i < LOOP_LIMITS.group; i++) {
        const [from, to] = i % 2 === 0 ? [w.atlas, 'Nova'] : [w.nova, 'Atlas'];
        results.push(await sendMessage(w.as(from), w.channel.id, `@${to} round ${i + 1}`));
      }
      return results.map((r) => ({ paused: r.agentsPaused, woken: r.turns.length }));
    };
    const upToTheLimit = [...Array.from({ length: LOOP_LIMITS.group - 1 }, () => ({ paused: false, woken: 1 })), { paused: true, woken: 0 }];
    expect(await exchange()).toEqual(upToTheLimit);
    await sendMessage(w.person(w.owner), w.channel.id, '@Nova @Atlas carry on, both of you');
    expect(await exchange()).toEqual(upToTheLimit);
  });

  it('pauses a one-to-one conversation after 4', async () => {
    const w = await chatWorld();
    const opened = await sendMessage(w.as(w.nova), w.channel.id, '<dm target="Iris">Numbers for the campaign?</dm>');
    const threadId = opened.payload.sideThreads![0]!;
    // The dm block was the first agent message of the thread.
    const r2 = await sendMessage(w.as(w.iris), threadId, 'Which campaign?');
    const r3 = await sendMessage(w.as(w.nova), threadId, 'The spring one.');
    const r4 = await sendMessage(w.as(w.iris), threadId, 'Here they are.');
    expect([r2, r3].map((r) => r.agentsPaused)).toEqual([false, false]);
    expect(r4).toMatchObject({ agentsPaused: true, turns: [] });
  });

  it('does not wake an agent that said it is done with agents’ messages, until a person writes', async () => {
    const w = await chatWorld();
    await sendMessage(w.as(w.nova), w.channel.id, 'That is all from me.', { done: true });
    expect((await sendMessage(w.as(w.atlas), w.channel.id, '@Nova thanks!')).turns).toEqual([]);
    // Something new: a person writes. Nova is woken again, by people and by agents.
    await sendMessage(w.person(w.owner), w.channel.id, 'One more thing about payroll.');
    expect((await sendMessage(w.as(w.atlas), w.channel.id, '@Nova see above')).turns.map((t) => t.agentId)).toEqual([w.nova.id]);
  });

  it('takes "done" from a completed delivery too', async () => {
    const w = await chatWorld();
    await sendMessage(w.person(w.owner), w.channel.id, '@Nova ok?');
    const [work] = await claimDeliveries(w.nova.id, 'c1');
    await completeDelivery(w.nova.id, 'c1', work!.id, { outcome: 'passed', done: true });
    expect((await sendMessage(w.as(w.iris), w.channel.id, '@Nova ping')).turns).toEqual([]);
  });
});

describe('side threads', () => {
  it('opens a private thread with just the named agents, linked to the message, and posts the block there', async () => {
    const w = await chatWorld();
    const sent = await sendMessage(w.as(w.nova), w.channel.id, 'Checking with marketing.\n\n<dm target="Iris">What did the spring newsletter cost?</dm>');
    expect(sent.body).toBe('Checking with marketing.');
    const [threadId] = sent.payload.sideThreads!;
    const thread = await getConversation(w.owner, threadId!);
    expect(thread).toMatchObject({ kind: 'thread', status: 'open', parentConversationId: w.channel.id, parentMessageId: sent.id });
    expect(thread.members.map((m) => m.name)).toEqual(['Nova', 'Iris']);
    const history = await listMessages(w.owner, threadId!);
    expect(history.messages.map((m) => [m.author.name, m.body])).toEqual([['Nova', 'What did the spring newsletter cost?']]);
    // Iris is asked in the thread; nobody in the channel is woken by Nova's message.
    expect(sent.turns).toEqual([]);
    const [work] = await claimDeliveries(w.iris.id, 'iris-1');
    expect(work).toMatchObject({ conversationId: threadId, conversationKind: 'thread' });
    // The card under the message.
    const channelHistory = await listMessages(w.coworker, w.channel.id);
    expect(channelHistory.messages.at(-1)!.sideThreads).toEqual([{ id: threadId, status: 'open' }]);
  });

  it('reuses the open thread for the same agents and opens another for others', async () => {
    const w = await chatWorld();
    const first = await sendMessage(w.as(w.nova), w.channel.id, '<dm target="Iris">one</dm>');
    const again = await sendMessage(w.as(w.nova), w.channel.id, 'More: <dm target="iris">two</dm> <dm target="Iris">three</dm>');
    expect(again.payload.sideThreads).toEqual(first.payload.sideThreads);
    const threadId = first.payload.sideThreads![0]!;
    expect((await listMessages(w.owner, threadId)).messages.map((m) => m.body)).toEqual(['one', 'two', 'three']);
    const wider = await sendMessage(w.as(w.nova), w.channel.id, '<dm target="Iris, Atlas">all of us</dm>');
    expect(wider.payload.sideThreads![0]).not.toBe(threadId);
    expect((await getConversation(w.owner, wider.payload.sideThreads![0]!)).members.map((m) => m.name)).toEqual(['Nova', 'Iris', 'Atlas']);
  });

  it('writes nothing when a target is unknown', async () => {
    const w = await chatWorld();
    const before = await messageCount(w.channel.id);
    await expect(sendMessage(w.as(w.nova), w.channel.id, 'Hi <dm target="Zed">psst</dm>')).rejects.toMatchObject({ status: 422 });
    expect(await messageCount(w.channel.id)).toBe(before);
  });

  it('resolves: the summary goes back to the conversation and the thread turns resolved', async () => {
    const w = await chatWorld();
    const opened = await sendMessage(w.as(w.nova), w.channel.id, '<dm target="Iris">numbers?</dm>');
    const threadId = opened.payload.sideThreads![0]!;
    await expect(resolveThread(w.as(w.atlas), threadId, 'not mine')).rejects.toMatchObject({ status: 404 });
    await expect(resolveThread(w.person(w.stranger), threadId, 'nope')).rejects.toMatchObject({ status: 404 });

    const { message } = await resolveThread(w.as(w.iris), threadId, 'Spring newsletter: €420.');
    expect(message).toMatchObject({ conversationId: w.channel.id, body: 'Spring newsletter: €420.', payload: { resolvesThread: threadId } });
    const thread = await getConversation(w.owner, threadId);
    expect(thread).toMatchObject({ status: 'resolved', resolutionMessageId: message.id });
    expect((await listMessages(w.owner, w.channel.id)).messages.find((m) => m.id === opened.id)!.sideThreads).toEqual([
      { id: threadId, status: 'resolved' },
    ]);
    await expect(sendMessage(w.as(w.nova), threadId, 'one more')).rejects.toMatchObject({ status: 409 });
    await expect(resolveThread(w.person(w.owner), threadId, 'again')).rejects.toMatchObject({ status: 409 });
    // The next dm to Iris opens a new thread.
    const next = await sendMessage(w.as(w.nova), w.channel.id, '<dm target="Iris">another question</dm>');
    expect(next.payload.sideThreads![0]).not.toBe(threadId);
  });

  it('lets a person who sees the thread resolve it', async () => {
    const w = await chatWorld();
    const opened = await sendMessage(w.as(w.nova), w.channel.id, '<dm target="Iris">numbers?</dm>');
    const { message } = await resolveThread(w.person(w.coworker), opened.payload.sideThreads![0]!, 'Settled in the meeting.');
    expect(message.author).toMatchObject({ kind: 'person', id: w.coworker.id });
  });

  it('abandons a thread that stalled and drops what was queued in it', async () => {
    const w = await chatWorld();
    const opened = await sendMessage(w.as(w.nova), w.channel.id, '<dm target="Iris">anyone?</dm>');
    const fresh = await sendMessage(w.as(w.nova), w.channel.id, '<dm target="Atlas">still going</dm>');
    const [stalled, active] = [opened.payload.sideThreads![0]!, fresh.payload.sideThreads![0]!];
    await asService((tx) => tx.query(`update public.conversations set last_message_at = now() - interval '2 hours' where id = $1`, [stalled]));
    expect(await abandonStalledThreads(60)).toEqual([stalled]);
    expect((await getConversation(w.owner, stalled)).status).toBe('abandoned');
    expect((await getConversation(w.owner, active)).status).toBe('open');
    expect(await claimDeliveries(w.iris.id, 'iris-1')).toEqual([]);
  });

  it('keeps a thread of a private conversation as private as its parent', async () => {
    const w = await chatWorld();
    const { conversation: room } = await createConversation(w.owner, {
      kind: 'channel',
      workspaceId: w.team.id,
      name: 'board',
      visibility: 'private',
      agentIds: [w.nova.id],
    });
    const opened = await sendMessage(w.as(w.nova), room.id, '<dm target="Iris">confidential</dm>');
    const threadId = opened.payload.sideThreads![0]!;
    expect((await getConversation(w.owner, threadId)).status).toBe('open');
    await expect(getConversation(w.coworker, threadId)).rejects.toMatchObject({ status: 404 });
  });
});

describe('one agent in several workspaces', () => {
  it('is one identity with one work queue: its connection takes work from every workspace it appears in, oldest first', async () => {
    const w = await chatWorld();
    const personal = w.nova.workspaceIds.find((id) => id !== w.team.id)!;
    const { conversation: mine } = await createConversation(w.owner, { kind: 'dm', workspaceId: personal, agentIds: [w.nova.id] });
    await sendMessage(w.person(w.owner), w.channel.id, '@Nova team question');
    await sendMessage(w.person(w.owner), mine.id, 'personal question');
    await sendMessage(w.person(w.coworker), w.channel.id, '@Nova another team question');
    const received: string[] = [];
    for (;;) {
      const [work] = await claimDeliveries(w.nova.id, 'nova-laptop', { limit: 1 });
      if (!work) break;
      received.push(`${work.workspaceId === personal ? 'personal' : 'team'}:${work.message.body}`);
      await completeDelivery(w.nova.id, 'nova-laptop', work.id, { outcome: 'replied' });
    }
    expect(received).toEqual(['team:@Nova team question', 'personal:personal question', 'team:@Nova another team question']);
  });

  it('pinned to the personal workspace only, leaves the team’s conversations and what was queued there', async () => {
    const w = await chatWorld();
    const personal = w.nova.workspaceIds.find((id) => id !== w.team.id)!;
    const { conversation: mine } = await createConversation(w.owner, { kind: 'dm', workspaceId: personal, agentIds: [w.nova.id] });
    await sendMessage(w.person(w.owner), w.channel.id, '@Nova team question');
    await sendMessage(w.person(w.owner), mine.id, 'personal question');
    await updateAgent(w.owner, w.nova.id, { workspaces: [personal] });
    expect((await getConversation(w.owner, w.channel.id)).members.map((m) => m.name)).not.toContain('Nova');
    expect((await claimDeliveries(w.nova.id, 'nova-laptop')).map((d) => d.message.body)).toEqual(['personal question']);
    await expect(sendMessage(w.as(w.nova), w.channel.id, 'still here?')).rejects.toMatchObject({ status: 404 });
  });
});

describe('reconnecting', () => {
  it('hands an agent what arrived while it was offline, in order, one message at a time per conversation', async () => {
    const w = await chatWorld();
    const { conversation: dm } = await createConversation(w.owner, { kind: 'dm', workspaceId: w.team.id, agentIds: [w.nova.id] });
    // Nova is offline while these arrive, interleaved across two conversations.
    for (const [conversation, body] of [
      [dm.id, 'dm 1'],
      [w.channel.id, '@Nova channel 1'],
      [dm.id, 'dm 2'],
      [dm.id, 'dm 3'],
      [w.channel.id, '@Nova channel 2'],
    ] as const) {
      await sendMessage(w.person(w.owner), conversation, body);
    }
    const received: string[] = [];
    for (let round = 0; round < 5; round++) {
      const batch = await claimDeliveries(w.nova.id, 'nova-laptop', { limit: 10 });
      if (batch.length === 0) break;
      // One per conversation per claim: the next message of a conversation waits for this one.
      expect(new Set(batch.map((d) => d.conversationId)).size).toBe(batch.length);
      for (const d of batch) {
        received.push(d.message.body);
        await completeDelivery(w.nova.id, 'nova-laptop', d.id, { outcome: 'replied' });
      }
    }
    expect(received.filter((b) => b.startsWith('dm'))).toEqual(['dm 1', 'dm 2', 'dm 3']);
    expect(received.filter((b) => b.includes('channel'))).toEqual(['@Nova channel 1', '@Nova channel 2']);
    expect(received).toHaveLength(5);
  });
});
