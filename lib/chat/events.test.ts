import { describe, expect, it } from 'vitest';
import { createAgent, issueHostToken, revokeAgentKey, updateAgent, exchangeAgentCredential, verifyAgentSession } from '@/lib/agents';
import { changeRole, deleteWorkspace, removeMember } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { readSse, type SseReading } from '@/test/sse';
import { waitFor } from '@/test/wait';
import { sendMessage, streamAgentEvents, streamWorkspaceEvents } from '.';
import { agentSession, chatWorld } from './test-world';

setupTestDatabase();

const messageIds = (stream: SseReading) => stream.events.filter((e) => e.event === 'message').map((e) => e.data.messageId);

describe('event streams end when access does', () => {
  it('a removed member’s stream ends at once and carries nothing announced after the removal; a role change keeps it open', async () => {
    const w = await chatWorld();
    const abort = new AbortController();
    const coworker = readSse(await streamWorkspaceEvents(w.coworker, w.team.id, abort.signal));
    const owner = readSse(await streamWorkspaceEvents(w.owner, w.team.id, abort.signal));
    // The coworker's stream has read the channel once, so it holds a "may read" answer for it.
    const before = await sendMessage(w.person(w.owner), w.channel.id, 'before');
    await waitFor(() => messageIds(coworker).includes(before.id), 'the first message');

    await changeRole(w.owner, w.team.id, w.coworker.id, 'admin');
    const asAdmin = await sendMessage(w.person(w.owner), w.channel.id, 'still here');
    await waitFor(() => messageIds(coworker).includes(asAdmin.id), 'the message after the role change');

    await removeMember(w.owner, w.team.id, w.coworker.id);
    const after = await sendMessage(w.person(w.owner), w.channel.id, 'after');
    await waitFor(() => messageIds(owner).includes(after.id), 'the owner to hear of the last message');
    await waitFor(() => coworker.ended || messageIds(coworker).includes(after.id), 'the removed member’s stream to end');
    abort.abort();
    expect(messageIds(coworker)).toEqual([before.id, asAdmin.id]);
    expect(coworker.ended).toBe(true);
    expect(owner.ended).toBe(false);
  });

  it.each([
    ['leaves the workspace', (w: Awaited<ReturnType<typeof chatWorld>>) => removeMember(w.coworker, w.team.id, w.coworker.id)],
    ['sees the workspace deleted', (w: Awaited<ReturnType<typeof chatWorld>>) => deleteWorkspace(w.owner, w.team.id)],
  ])('a person who %s: the stream ends', async (_, revoke) => {
    const w = await chatWorld();
    const abort = new AbortController();
    const stream = readSse(await streamWorkspaceEvents(w.coworker, w.team.id, abort.signal));
    await waitFor(() => stream.events.length > 0, 'ready');
    await revoke(w);
    await waitFor(() => stream.ended, 'the stream to end');
    abort.abort();
    expect(stream.events.map((e) => e.event)).toEqual(['ready']);
  });

  it('an agent connection’s stream ends when its key is revoked and hears of no work after; a session of another key goes on', async () => {
    const w = await chatWorld();
    const abort = new AbortController();
    const revoked = await agentSession(w.owner, w.nova.id);
    const stream = readSse(await streamAgentEvents(revoked, abort.signal));
    const other = readSse(await streamAgentEvents(await agentSession(w.owner, w.nova.id), abort.signal));
    await waitFor(() => stream.events.length > 0, 'ready');

    await revokeAgentKey(w.owner, w.nova.id, revoked.keyId);
    await sendMessage(w.person(w.owner), w.channel.id, '@Nova are you there?');
    await waitFor(() => other.events.some((e) => e.event === 'deliveries'), 'the other session to hear of the work');
    await waitFor(() => stream.ended || stream.events.some((e) => e.event === 'deliveries'), 'the revoked session’s stream to end');
    abort.abort();
    expect(stream.events.map((e) => e.event)).toEqual(['ready']);
    expect(stream.ended).toBe(true);
    expect(other.ended).toBe(false);
  });

  it('a hosted agent’s stream ends when it moves to local (its host tokens are revoked)', async () => {
    const w = await chatWorld();
    const agent = await createAgent(w.owner, { name: 'Orion', role: 'Receptionist', runtime: 'hosted' });
    const { token } = await issueHostToken(agent.id, 'host-1');
    const session = (await verifyAgentSession((await exchangeAgentCredential(token)).token))!;
    const abort = new AbortController();
    const stream = readSse(await streamAgentEvents(session, abort.signal));
    await waitFor(() => stream.events.length > 0, 'ready');
    await updateAgent(w.owner, agent.id, { runtime: 'local' });
    await waitFor(() => stream.ended, 'the stream to end');
    abort.abort();
  });
});
