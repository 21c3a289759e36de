import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, startFakeModelServer, useFakeModelEnv, type FakeModelServer } from '@/lib/agent/testing';
import { setupTestDatabase } from '@/test/db';
import type { AgentSelf, ConversationView, Delivery } from './api';
import type { TurnInput } from './bridge';
import { offlineDecision } from './offline';
import { createTurnRunner } from './turn';

process.env.LOG_LEVEL = 'silent';
const db = setupTestDatabase();

let fake: FakeModelServer;
let restoreEnv: () => void;
let workspaceId: string;

beforeAll(async () => {
  fake = await startFakeModelServer();
  restoreEnv = useFakeModelEnv({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url, AGENT_MAX_RETRIES: '0' });
  ({ workspaceId } = await createTestWorkspace(db(), 'pro'));
});
afterAll(async () => {
  restoreEnv();
  await fake.close();
});
afterEach(() => fake.reset());

const nova: AgentSelf = { id: 'a-nova', name: 'Nova', role: 'Receptionist', capabilities: ['bookings'], backend: 'anthropic', model: null, runtime: 'hosted' };
const atlas = { id: 'a-atlas', name: 'Atlas', role: 'Chief of staff' };

function turn(
  kind: ConversationView['conversation']['kind'],
  body: string,
  over: { author?: Partial<Delivery['message']>; conversation?: Partial<ConversationView['conversation']>; agent?: Partial<AgentSelf> } = {},
): TurnInput {
  const message = { id: 'm1', seq: 7, authorKind: 'person' as const, authorId: 'u1', authorName: 'Giulia', body, createdAt: new Date().toISOString(), ...over.author };
  return {
    agent: { ...nova, ...over.agent },
    delivery: { id: 'd1', workspaceId, conversationId: 'c1', conversationKind: kind, conversationName: kind === 'channel' ? 'general' : null, turn: 0, attempts: 1, leaseExpiresAt: new Date().toISOString(), message },
    view: {
      conversation: { id: 'c1', workspaceId, kind, name: kind === 'channel' ? 'general' : null, status: kind === 'thread' ? 'open' : null, parentConversationId: null, openedBy: null, resolutionMessageId: null, ...over.conversation },
      members: [
        { kind: 'person', id: 'u1', name: 'Giulia', role: null },
        { kind: 'agent', id: nova.id, name: 'Nova', role: nova.role },
      ],
      agents: [{ ...nova }, atlas],
      messages: [{ id: 'm0', seq: 5, authorKind: 'agent', authorId: 'a-atlas', authorName: 'Atlas', body: 'Morning all.', createdAt: message.createdAt }, message],
      nextCursor: null,
    },
    signal: new AbortController().signal,
    deadline: new Date(Date.now() + 60_000),
  };
}

describe('a turn through the agent runtime', () => {
  const run = createTurnRunner();

  it('answers with what the model put in the reply tool, with the conversation in its context', async () => {
    fake.script({ toolCalls: [{ name: 'reply', input: { message: 'We open at **9**.', done: true } }] });
    expect(await run(turn('channel', 'When do we open tomorrow?'))).toEqual({ kind: 'reply', body: 'We open at **9**.', done: true });
    const request = fake.requests[0]!;
    expect(request.text).toContain('You are Nova, Receptionist');
    expect(request.text).toContain('[Atlas, agent] Morning all.');
    expect(request.text).toContain('When do we open tomorrow?');
    expect((request.body.tools as Array<{ name: string }>).map((t) => t.name)).toContain('reply');
  });

  it('passes, resolves a side thread, delegates from a DM and relays from a delegation — each only where it applies', async () => {
    fake.script({ toolCalls: [{ name: 'reply', input: { message: '', pass: true } }] });
    expect(await run(turn('channel', 'Anyone?'))).toEqual({ kind: 'pass' });

    fake.script({ toolCalls: [{ name: 'reply', input: { message: 'Three on the waitlist.', resolve: true } }] });
    expect(await run(turn('thread', 'Waitlist?'))).toEqual({ kind: 'resolve', summary: 'Three on the waitlist.' });
    fake.script({ toolCalls: [{ name: 'reply', input: { message: 'Three on the waitlist.', resolve: true } }] });
    expect(await run(turn('channel', 'Waitlist?'))).toEqual({ kind: 'reply', body: 'Three on the waitlist.' });

    fake.script({ toolCalls: [{ name: 'reply', input: { message: 'Asking Atlas.', delegate: { to: ['Atlas'], task: 'Book the dinner.' } } }] });
    expect(await run(turn('dm', 'Get the dinner booked'))).toEqual({ kind: 'delegate', to: ['Atlas'], task: 'Book the dinner.', body: 'Asking Atlas.' });

    fake.script({ toolCalls: [{ name: 'reply', input: { message: 'Booked for 8.', relay: true } }] });
    expect(await run(turn('delegation', '@Nova booked'))).toEqual({ kind: 'relay', result: 'Booked for 8.' });
  });

  it('takes plain text when the model does not call the tool, and PASS as a pass', async () => {
    fake.script({ text: 'Sure, done.' });
    expect(await run(turn('dm', 'Thanks'))).toEqual({ kind: 'reply', body: 'Sure, done.' });
    fake.script({ text: 'PASS' });
    expect(await run(turn('channel', 'Anyone?'))).toEqual({ kind: 'pass' });
  });

  it('says why when its backend cannot run, instead of going silent', async () => {
    const decision = await run(turn('dm', 'Hello', { agent: { backend: 'openai' } }));
    expect(decision).toEqual({ kind: 'reply', body: expect.stringMatching(/^I could not answer: .*OPENAI_API_KEY is not set/) });
  });
});

describe('the offline model in chat', () => {
  const decide = (input: TurnInput) => offlineDecision(input);

  it('acknowledges what it cannot understand, quoting it without waking anyone', () => {
    expect(decide(turn('channel', 'Hi @Nova, how are <b>you</b>?'))).toEqual({
      kind: 'reply',
      body: 'Received: “Hi Nova, how are byou/b?”. I run on the offline model (no AI model is configured), so I can only acknowledge messages.',
    });
  });

  it('hands "ask NAME: …" over as a side thread in a channel and as a delegation in a DM', () => {
    expect(decide(turn('channel', '@Nova ask Atlas: are we open Sunday?'))).toEqual({
      kind: 'reply',
      body: 'I asked Atlas in a side thread.\n<dm target="Atlas">are we open Sunday?</dm>',
    });
    expect(decide(turn('dm', 'chiedi a atlas: prenota la cena'))).toMatchObject({ kind: 'delegate', to: ['Atlas'], task: 'prenota la cena' });
    // Not another agent of the workspace, or not a person asking: just acknowledged.
    expect(decide(turn('channel', 'ask Nobody: hello?'))).toMatchObject({ kind: 'reply', body: expect.stringMatching(/^Received/) });
    expect(decide(turn('channel', 'ask Nova: hello?'))).toMatchObject({ kind: 'reply', body: expect.stringMatching(/^Received/) });
    expect(decide(turn('channel', 'ask Atlas: hello?', { author: { authorKind: 'agent', authorName: 'Atlas' } }))).toMatchObject({ done: true });
  });

  it('takes the answer in its own side thread or delegation as the result', () => {
    const fromAtlas = { author: { authorKind: 'agent' as const, authorId: 'a-atlas', authorName: 'Atlas' } };
    const mine = { openedBy: { kind: 'agent' as const, id: nova.id } };
    expect(decide(turn('thread', 'Sunday: closed.', { ...fromAtlas, conversation: mine }))).toEqual({ kind: 'resolve', summary: 'Atlas answered: “Sunday: closed.”' });
    expect(decide(turn('delegation', '@Nova booked.', { ...fromAtlas, conversation: mine }))).toEqual({ kind: 'relay', result: 'Atlas answered: “Nova booked.”' });
    // In someone else's delegation it answers the delegator by name, once.
    expect(decide(turn('delegation', '@Nova do it', { ...fromAtlas, conversation: { openedBy: { kind: 'agent', id: 'a-atlas' } } }))).toEqual({
      kind: 'reply',
      body: expect.stringMatching(/^@Atlas Received: “Nova do it”/),
      done: true,
    });
  });
});
