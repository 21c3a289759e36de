import { describe, expect, it } from 'vitest';
import { setupTestDatabase } from '@/test/db';
import { createConversation, delegate, getConversation, listConversations, listMessages, relayResult, sendMessage } from '.';
import { chatWorld, deliveriesOf } from './test-world';

setupTestDatabase();

describe('delegation from a DM', () => {
  it('opens a parallel conversation of its own, and relays only the final result back to the DM', async () => {
    const w = await chatWorld();
    const { conversation: dm } = await createConversation(w.owner, { kind: 'dm', workspaceId: w.team.id, agentIds: [w.nova.id] });
    const asked = await sendMessage(w.person(w.owner), dm.id, 'Can you get Atlas to plan the team dinner?');

    const { delegationId, message: task } = await delegate(w.as(w.nova), dm.id, { to: ['atlas'], task: 'Plan the team dinner for Friday.', messageId: asked.id });
    const delegation = await getConversation(w.owner, delegationId);
    expect(delegation).toMatchObject({ kind: 'delegation', parentConversationId: dm.id, parentMessageId: asked.id, visibility: 'private', resolutionMessageId: null });
    // The delegator, the agent asked, then the DM's people (who may look in); the DM itself is unchanged.
    expect(delegation.members.map((m) => m.name)).toEqual(['Nova', 'Atlas', 'owner']);
    expect((await getConversation(w.owner, dm.id)).members.map((m) => m.name)).toEqual(['owner', 'Nova']);
    expect((await listMessages(w.owner, dm.id)).messages).toHaveLength(1);
    // The task mentions the agent it goes to, which wakes it there.
    expect(task).toMatchObject({ conversationId: delegationId, body: '@Atlas Plan the team dinner for Friday.', author: { name: 'Nova' } });
    expect((await deliveriesOf(task.id)).map((d) => [d.agent_id, d.status])).toEqual([[w.atlas.id, 'pending']]);

    // The back-and-forth stays in the delegation.
    const answer = await sendMessage(w.as(w.atlas), delegationId, '@Nova Booked: Trattoria Da Mario, Friday 20:00, 8 people.');
    expect((await deliveriesOf(answer.id)).map((d) => d.agent_id)).toEqual([w.nova.id]);
    expect((await listMessages(w.owner, dm.id)).messages).toHaveLength(1);

    // The delegate is not in the DM, so it cannot post there; the delegator relays the result, once.
    await expect(relayResult(w.as(w.atlas), delegationId, { result: 'Booked.' })).rejects.toMatchObject({ status: 403 });
    const relayed = await relayResult(w.as(w.nova), delegationId, { result: 'Dinner booked: Trattoria Da Mario, Friday 20:00.' });
    expect(relayed.message).toMatchObject({ conversationId: dm.id, author: { name: 'Nova' } });
    const dmMessages = (await listMessages(w.owner, dm.id)).messages;
    expect(dmMessages.map((m) => m.body)).toEqual(['Can you get Atlas to plan the team dinner?', 'Dinner booked: Trattoria Da Mario, Friday 20:00.']);
    expect((await getConversation(w.owner, delegationId)).resolutionMessageId).toBe(relayed.message.id);
    await expect(relayResult(w.as(w.nova), delegationId, { result: 'Again' })).rejects.toMatchObject({ status: 409 });

    // Its own record: listed for the DM's person, invisible to a coworker who is not in the DM.
    expect((await listConversations(w.owner, w.team.id)).map((c) => c.id)).toContain(delegationId);
    await expect(getConversation(w.coworker, delegationId)).rejects.toMatchObject({ status: 404 });
  });

  it('starts only in a DM, only to agents of the workspace, and only for members of the DM', async () => {
    const w = await chatWorld();
    const { conversation: dm } = await createConversation(w.owner, { kind: 'dm', workspaceId: w.team.id, agentIds: [w.nova.id] });
    await expect(delegate(w.as(w.nova), w.channel.id, { to: ['Atlas'], task: 'x' })).rejects.toMatchObject({ status: 400, message: expect.stringContaining('<dm') });
    await expect(delegate(w.as(w.nova), dm.id, { to: ['Nobody'], task: 'x' })).rejects.toMatchObject({ status: 422 });
    await expect(delegate(w.as(w.nova), dm.id, { to: ['Nova'], task: 'x' })).rejects.toMatchObject({ status: 422 });
    await expect(delegate(w.as(w.atlas), dm.id, { to: ['Iris'], task: 'x' })).rejects.toMatchObject({ status: 404 });
    await expect(delegate(w.person(w.coworker), dm.id, { to: ['Iris'], task: 'x' })).rejects.toMatchObject({ status: 404 });
    // A person in the DM may delegate too; a side thread is resolved, not relayed.
    const { delegationId } = await delegate(w.person(w.owner), dm.id, { to: ['Iris'], task: 'Draft the newsletter.' });
    expect((await getConversation(w.owner, delegationId)).members.map((m) => m.name)).toEqual(['owner', 'Iris']);
    await expect(relayResult(w.person(w.owner), dm.id, { result: 'x' })).rejects.toMatchObject({ status: 400 });
  });
});
