import { describe, expect, it } from 'vitest';
import { subscribe, type RealtimeEvent } from '@/lib/realtime';
import { setupTestDatabase } from '@/test/db';
import {
  addMembers,
  addReaction,
  claimDeliveries,
  createConversation,
  deleteMessage,
  editMessage,
  getConversation,
  listConversations,
  listMessages,
  markRead,
  removeReaction,
  sendMessage,
  streamAgentEvents,
  streamWorkspaceEvents,
} from '.';
import { readSse, type SseReading } from '@/test/sse';
import { waitFor } from '@/test/wait';
import { agentSession, chatWorld, deliveriesOf } from './test-world';

setupTestDatabase();

/** The first `count` events of an SSE response. */
async function firstEvents(reading: SseReading, count: number) {
  return waitFor(() => reading.events.length >= count && reading.events.slice(0, count), `${count} events`);
}

/** Subscribes now; the returned promise is the first matching event. */
async function nextEvent(predicate: (e: RealtimeEvent) => boolean): Promise<{ event: Promise<RealtimeEvent>; stop: () => Promise<void> }> {
  let found!: (event: RealtimeEvent) => void;
  const event = new Promise<RealtimeEvent>((resolve) => (found = resolve));
  const stop = await subscribe((e) => predicate(e) && found(e));
  return { event, stop };
}

describe('conversations', () => {
  it('creates channels with unique names and reuses a DM with the same members', async () => {
    const w = await chatWorld();
    await expect(createConversation(w.owner, { kind: 'channel', workspaceId: w.team.id, name: 'General' })).rejects.toMatchObject({ status: 409 });
    const first = await createConversation(w.owner, { kind: 'dm', workspaceId: w.team.id, userIds: [w.coworker.id], agentIds: [w.nova.id] });
    const again = await createConversation(w.coworker, { kind: 'dm', workspaceId: w.team.id, userIds: [w.owner.id], agentIds: [w.nova.id] });
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ created: false, conversation: { id: first.conversation.id } });
    await expect(createConversation(w.owner, { kind: 'dm', workspaceId: w.team.id, userIds: [w.stranger.id] })).rejects.toMatchObject({ status: 422 });
    await expect(createConversation(w.stranger, { kind: 'channel', workspaceId: w.team.id, name: 'x' })).rejects.toMatchObject({ status: 404 });
    await expect(createConversation(w.owner, { kind: 'dm', workspaceId: w.team.id })).rejects.toMatchObject({ status: 422 });
  });

  it('lists conversations with unread counts that mark-read clears', async () => {
    const w = await chatWorld();
    const { conversation: dm } = await createConversation(w.owner, { kind: 'dm', workspaceId: w.team.id, userIds: [w.coworker.id] });
    await sendMessage(w.person(w.owner), dm.id, 'one');
    await sendMessage(w.person(w.owner), dm.id, 'two');
    await sendMessage(w.person(w.owner), w.channel.id, 'three');
    const listed = await listConversations(w.coworker, w.team.id);
    expect(listed.map((c) => [c.kind, c.unread])).toEqual([
      ['channel', 1],
      ['dm', 2],
    ]);
    // Own messages are never unread.
    expect((await listConversations(w.owner, w.team.id)).every((c) => c.unread === 0)).toBe(true);
    await markRead(w.coworker, dm.id);
    expect((await listConversations(w.coworker, w.team.id)).find((c) => c.id === dm.id)!.unread).toBe(0);
    // The stranger sees nothing.
    await expect(listConversations(w.stranger, w.team.id)).rejects.toMatchObject({ status: 404 });
  });

  it('lets anyone in the workspace read and join a public channel, and keeps private ones to their members', async () => {
    const w = await chatWorld();
    const { conversation: secret } = await createConversation(w.owner, { kind: 'channel', workspaceId: w.team.id, name: 'secret', visibility: 'private' });
    const { conversation: open } = await createConversation(w.owner, { kind: 'channel', workspaceId: w.team.id, name: 'open' });
    expect((await listConversations(w.coworker, w.team.id)).map((c) => c.name)).toEqual(expect.arrayContaining(['open', 'general']));
    expect((await listConversations(w.coworker, w.team.id)).map((c) => c.name)).not.toContain('secret');
    await expect(getConversation(w.coworker, secret.id)).rejects.toMatchObject({ status: 404 });
    expect((await getConversation(w.coworker, open.id)).joined).toBe(false);
    await expect(addMembers(w.coworker, open.id, { agentIds: [w.iris.id] })).rejects.toMatchObject({ status: 403 });
    expect((await addMembers(w.coworker, open.id, { userIds: [w.coworker.id] })).joined).toBe(true);
    expect((await addMembers(w.coworker, open.id, { agentIds: [w.iris.id] })).members.map((m) => m.name)).toEqual(['owner', 'coworker', 'Iris']);
  });
});

describe('messages', () => {
  it('pages through history with a cursor, oldest first within a page', async () => {
    const w = await chatWorld();
    for (let i = 1; i <= 7; i++) await sendMessage(w.person(w.owner), w.channel.id, `m${i}`);
    const page1 = await listMessages(w.coworker, w.channel.id, { limit: 3 });
    expect(page1.messages.map((m) => m.body)).toEqual(['m5', 'm6', 'm7']);
    const page2 = await listMessages(w.coworker, w.channel.id, { limit: 3, before: page1.nextCursor! });
    expect(page2.messages.map((m) => m.body)).toEqual(['m2', 'm3', 'm4']);
    const page3 = await listMessages(w.coworker, w.channel.id, { limit: 3, before: page2.nextCursor! });
    expect(page3).toMatchObject({ messages: [{ body: 'm1', author: { kind: 'person', id: w.owner.id, name: 'owner' } }], nextCursor: null });
    await expect(listMessages(w.stranger, w.channel.id)).rejects.toMatchObject({ status: 404 });
  });

  it('edits and deletes only the author’s own messages; a deleted message is no longer answered', async () => {
    const w = await chatWorld();
    const sent = await sendMessage(w.person(w.owner), w.channel.id, '@Nova check this');
    await expect(editMessage(w.coworker, w.channel.id, sent.id, 'hijack')).rejects.toMatchObject({ status: 403 });
    const edited = await editMessage(w.owner, w.channel.id, sent.id, '@Iris check this instead');
    expect(edited.editedAt).toBeInstanceOf(Date);
    let [shown] = (await listMessages(w.owner, w.channel.id)).messages.slice(-1);
    expect(shown).toMatchObject({ body: '@Iris check this instead', mentions: [{ type: 'agent', id: w.iris.id }] });
    // An edit is not a new message: Nova still holds the original delivery, nobody new is asked.
    expect((await deliveriesOf(sent.id)).map((d) => d.agent_id)).toEqual([w.nova.id]);

    await expect(deleteMessage(w.coworker, w.channel.id, sent.id)).rejects.toMatchObject({ status: 403 });
    await deleteMessage(w.owner, w.channel.id, sent.id);
    [shown] = (await listMessages(w.owner, w.channel.id)).messages.slice(-1);
    expect(shown).toMatchObject({ body: '', deletedAt: expect.any(Date) });
    expect((await deliveriesOf(sent.id)).map((d) => d.status)).toEqual(['skipped']);
    expect(await claimDeliveries(w.nova.id, 'c1')).toEqual([]);
    await expect(editMessage(w.owner, w.channel.id, sent.id, 'back')).rejects.toMatchObject({ status: 409 });
  });

  it('counts reactions per emoji and knows which are mine', async () => {
    const w = await chatWorld();
    const sent = await sendMessage(w.person(w.owner), w.channel.id, 'ship it?');
    await addReaction(w.owner, w.channel.id, sent.id, '👍');
    await addReaction(w.coworker, w.channel.id, sent.id, '👍');
    await addReaction(w.coworker, w.channel.id, sent.id, '👍');
    await addReaction(w.coworker, w.channel.id, sent.id, '🎉');
    await expect(addReaction(w.stranger, w.channel.id, sent.id, '👎')).rejects.toMatchObject({ status: 404 });
    const [shown] = (await listMessages(w.owner, w.channel.id)).messages.slice(-1);
    expect(shown!.reactions).toEqual([
      { emoji: '👍', count: 2, mine: true },
      { emoji: '🎉', count: 1, mine: false },
    ]);
    await removeReaction(w.owner, w.channel.id, sent.id, '👍');
    const [after] = (await listMessages(w.owner, w.channel.id)).messages.slice(-1);
    expect(after!.reactions[0]).toEqual({ emoji: '👍', count: 1, mine: false });
  });
});

describe('realtime', () => {
  it('announces a new message and the deliveries it queued when the transaction commits', async () => {
    const w = await chatWorld();
    const messageEvent = await nextEvent((e) => e.type === 'message' && e.conversationId === w.channel.id);
    const deliveryEvent = await nextEvent((e) => e.type === 'deliveries' && e.agentId === w.nova.id);
    const sent = await sendMessage(w.person(w.owner), w.channel.id, '@Nova hello');
    expect(await messageEvent.event).toEqual({ type: 'message', workspaceId: w.team.id, conversationId: w.channel.id, messageId: sent.id });
    expect(await deliveryEvent.event).toEqual({ type: 'deliveries', agentId: w.nova.id });
    await Promise.all([messageEvent.stop(), deliveryEvent.stop()]);
  });

  it('streams a person only the events of conversations they can read', async () => {
    const w = await chatWorld();
    const { conversation: secret } = await createConversation(w.owner, { kind: 'channel', workspaceId: w.team.id, name: 'secret', visibility: 'private' });
    const abort = new AbortController();
    const response = await streamWorkspaceEvents(w.coworker, w.team.id, abort.signal);
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    // The stream is subscribed once the response exists.
    const reading = readSse(response);
    await sendMessage(w.person(w.owner), secret.id, 'not for the coworker');
    const visible = await sendMessage(w.person(w.owner), w.channel.id, 'for everyone');
    const events = await firstEvents(reading, 2);
    abort.abort();
    expect(events).toEqual([
      { event: 'ready', data: { workspaceId: w.team.id } },
      { event: 'message', data: { type: 'message', workspaceId: w.team.id, conversationId: w.channel.id, messageId: visible.id } },
    ]);
    await expect(streamWorkspaceEvents(w.stranger, w.team.id, abort.signal)).rejects.toMatchObject({ status: 404 });
  });

  it('tells an agent connection to claim when it connects and whenever work arrives', async () => {
    const w = await chatWorld();
    const abort = new AbortController();
    const response = await streamAgentEvents(await agentSession(w.owner, w.nova.id), abort.signal);
    // The stream is subscribed once the response exists.
    const reading = readSse(response);
    await sendMessage(w.person(w.owner), w.channel.id, '@Nova are you there?');
    expect((await firstEvents(reading, 2)).map((e) => e.event)).toEqual(['ready', 'deliveries']);
    abort.abort();
    expect((await claimDeliveries(w.nova.id, 'sse-1')).map((d) => d.message.body)).toEqual(['@Nova are you there?']);
  });
});
