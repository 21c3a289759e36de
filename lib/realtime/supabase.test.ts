import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, editMessage, sendMessage, streamAgentEvents, streamWorkspaceEvents } from '@/lib/chat';
import { agentSession, chatWorld } from '@/lib/chat/test-world';
import { config, resetConfigForTests } from '@/lib/config';
import { asService, withUser } from '@/lib/db';
import { removeMember } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { readSse } from '@/test/sse';
import { waitFor } from '@/test/wait';
import { CHANNEL, type RealtimeEvent } from '.';
import { BROADCAST_EVENT, supabaseRealtimeTransport } from './supabase';
import { REALTIME_SCHEMA_STAND_IN, startRealtimeStandIn } from './test-realtime-server';

/**
 * The Supabase Realtime transport, against stand-ins: `realtime.send` in the test database (same
 * signature, same behaviour where it matters) and a small Phoenix-protocol server for the real
 * supabase-js client to join. Not run against a live Supabase project.
 */

const getDb = setupTestDatabase();
const SERVICE_ROLE_KEY = 'service-role-key-for-tests';
let realtime: Awaited<ReturnType<typeof startRealtimeStandIn>>;
let stopWalReader: () => Promise<void>;
const saved = { ...process.env };

beforeAll(async () => {
  realtime = await startRealtimeStandIn({ serviceRoleKey: SERVICE_ROLE_KEY });
  // This whole file runs with REALTIME_TRANSPORT=supabase. DATABASE_URL only satisfies the setting's
  // validation: the test database is installed directly and nothing opens that URL.
  Object.assign(process.env, {
    REALTIME_TRANSPORT: 'supabase',
    SUPABASE_URL: realtime.url,
    SUPABASE_SERVICE_ROLE_KEY: SERVICE_ROLE_KEY,
    DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
  });
  resetConfigForTests();
  await getDb().exec(REALTIME_SCHEMA_STAND_IN);
  // Realtime reads committed rows and broadcasts them to the topic's clients.
  stopWalReader = await getDb().listen('realtime_stand_in', (raw) => {
    const row = JSON.parse(raw) as { topic: string; event: string; payload: unknown; private: boolean };
    realtime.broadcast(row.topic, row.event, row.payload, row.private);
  });
});

afterAll(async () => {
  await stopWalReader?.();
  await realtime?.close();
  process.env = saved;
  resetConfigForTests();
});

const transport = () => supabaseRealtimeTransport({ url: realtime.url, serviceRoleKey: SERVICE_ROLE_KEY });
const sentRows = () =>
  asService((tx) =>
    tx.query<{ topic: string; event: string; private: boolean; extension: string; payload: Record<string, unknown> }>(
      `select topic, event, private, extension, payload from realtime.messages order by inserted_at`,
    ),
  );
const clearSent = () => asService((tx) => tx.query('delete from realtime.messages'));

/** Reads SSE events from a response body until `count` named events arrived. */
async function readEvents(response: Response, count: number): Promise<string[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: string[] = [];
  let buffer = '';
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (const match of buffer.matchAll(/^event: (.*)$/gm)) if (events.length < count) events.push(match[1]!);
    buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
  }
  reader.releaseLock();
  return events;
}

describe('the Supabase Realtime transport', () => {
  it('is the one REALTIME_TRANSPORT=supabase chooses, and refuses to start without what it needs', () => {
    expect(config().supabaseRealtime).toEqual({ url: realtime.url, serviceRoleKey: SERVICE_ROLE_KEY });
    delete process.env.SUPABASE_SERVICE_ROLE_KEY;
    resetConfigForTests();
    try {
      expect(() => config()).toThrow(/REALTIME_TRANSPORT=supabase needs SUPABASE_SERVICE_ROLE_KEY/);
    } finally {
      process.env.SUPABASE_SERVICE_ROLE_KEY = SERVICE_ROLE_KEY;
      resetConfigForTests();
    }
  });

  it('publishes with realtime.send in the writing transaction: private, on the shared topic, nothing on rollback', async () => {
    await clearSent();
    const event: RealtimeEvent = { type: 'deliveries', agentId: '5b0c1c3e-0d5e-4c3a-9d6f-2a1b3c4d5e6f' };
    await getDb().transaction((tx) => transport().publish(tx, event));
    await getDb()
      .transaction(async (tx) => {
        await transport().publish(tx, { type: 'deliveries', agentId: '00000000-0000-4000-8000-000000000000' });
        throw new Error('rolled back');
      })
      .catch(() => {});
    const rows = await sentRows();
    expect(rows).toEqual([{ topic: CHANNEL, event: BROADCAST_EVENT, private: true, extension: 'broadcast', payload: { ...event, id: expect.any(String) } }]);
  });

  it('publishes from inside a person’s RLS transaction too (as the connection’s role, which may write realtime.messages)', async () => {
    const w = await chatWorld();
    const sent = await sendMessage(w.person(w.owner), w.channel.id, 'hello');
    await clearSent();
    // An edit publishes without leaving the person's role; realtime.send as `authenticated` would fail.
    await editMessage(w.owner, w.channel.id, sent.id, 'hello again');
    expect((await sentRows()).map((r) => r.payload)).toEqual([
      { type: 'message', workspaceId: w.team.id, conversationId: w.channel.id, messageId: sent.id, id: expect.any(String) },
    ]);
    // What a person's own role could do, for comparison: the stand-in turns the refusal into a warning.
    await clearSent();
    await withUser(w.owner, (tx) => tx.query(`select realtime.send('{}'::jsonb, 'event', 'mv_events', true)`));
    expect(await sentRows()).toEqual([]);
  });

  it('listens with one supabase-js channel on the private topic and hands over each event, without realtime.send’s id', async () => {
    const received: RealtimeEvent[] = [];
    const stop = await transport().listen((event) => received.push(event));
    try {
      expect(realtime.joins.at(-1)).toEqual({ topic: `realtime:${CHANNEL}`, private: true, accessToken: SERVICE_ROLE_KEY, apikey: SERVICE_ROLE_KEY });
      const event: RealtimeEvent = { type: 'conversation', workspaceId: '5b0c1c3e-0d5e-4c3a-9d6f-2a1b3c4d5e6f', conversationId: '6c1d2d4f-1e6f-4d4b-8e7a-3b2c4d5e6f70' };
      realtime.broadcast(CHANNEL, BROADCAST_EVENT, { not: 'ours' }, true);
      realtime.broadcast(CHANNEL, 'some-other-event', event, true);
      realtime.broadcast(CHANNEL, BROADCAST_EVENT, { ...event, id: 'added-by-realtime-send' }, true);
      await waitFor(() => received.length > 0, 'the broadcast');
      expect(received).toEqual([event]);
    } finally {
      await stop();
    }
    await waitFor(() => realtime.joinedOn(`realtime:${CHANNEL}`) === 0, 'the channel to be left');
  });

  it('refuses to start listening when Realtime turns the join down (a wrong key)', async () => {
    const wrong = supabaseRealtimeTransport({ url: realtime.url, serviceRoleKey: 'not-the-service-role-key' });
    await expect(wrong.listen(() => {})).rejects.toThrow(/refused the "mv_events" channel.*SUPABASE_SERVICE_ROLE_KEY/);
  });

  it('carries a person’s message to the agent’s event stream end to end: send → realtime.send → broadcast → SSE', async () => {
    const w = await chatWorld();
    const { conversation: dm } = await createConversation(w.owner, { kind: 'dm', workspaceId: w.team.id, agentIds: [w.nova.id] });
    const abort = new AbortController();
    const response = await streamAgentEvents(await agentSession(w.owner, w.nova.id), abort.signal);
    const reading = readEvents(response, 2);
    await sendMessage(w.person(w.owner), dm.id, 'are you there?');
    expect(await reading).toEqual(['ready', 'deliveries']);
    abort.abort();
    expect((await sentRows()).some((r) => r.payload.type === 'deliveries' && r.payload.agentId === w.nova.id)).toBe(true);
  });

  it('carries a removal to the removed member’s open stream: it ends, and the next message is not delivered to them', async () => {
    const w = await chatWorld();
    const abort = new AbortController();
    const stream = readSse(await streamWorkspaceEvents(w.coworker, w.team.id, abort.signal));
    const messageIds = () => stream.events.filter((e) => e.event === 'message').map((e) => e.data.messageId);
    const before = await sendMessage(w.person(w.owner), w.channel.id, 'before');
    await waitFor(() => messageIds().includes(before.id), 'the first message');
    await clearSent();
    await removeMember(w.owner, w.team.id, w.coworker.id);
    const after = await sendMessage(w.person(w.owner), w.channel.id, 'after');
    await waitFor(() => stream.ended || messageIds().includes(after.id), 'the stream to end');
    abort.abort();
    expect(messageIds()).toEqual([before.id]);
    expect(stream.ended).toBe(true);
    // The removal went out through Realtime, before the message (the agents' `deliveries` aside).
    expect((await sentRows()).map((r) => r.payload.type).filter((type) => type !== 'deliveries')).toEqual(['members', 'message']);
  });
});
