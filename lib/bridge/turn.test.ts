import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, startFakeModelServer, useFakeModelEnv, type FakeModelServer } from '@/lib/agent/testing';
import { setupTestDatabase } from '@/test/db';
import { AgentApiError, type AgentSelf, type ConversationView, type Delivery, type TurnApi } from './api';
import type { TurnInput } from './bridge';
import type { PlanetMetrics } from '@/lib/planets';
import { languageOf, offlinePlan } from './offline';
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

const nova: AgentSelf = { id: 'a-nova', name: 'Nova', role: 'Receptionist', capabilities: ['bookings'], instructions: '', backend: 'anthropic', model: null, runtime: 'hosted' };
const atlas = { id: 'a-atlas', name: 'Atlas', role: 'Chief of staff' };

const C1 = '11111111-1111-4111-8111-111111111111';
const BOOKING_FIGURES: PlanetMetrics = {
  planet: 'booking',
  health: 'watch',
  metrics: {
    bookings_today: { value: 11, unit: 'count', previous: 9, changePct: 22.2 },
    no_show_rate_30d: { value: 0.09, unit: 'ratio', previous: 0.07, changePct: 28.6, benchmark: 0.06 },
    revenue_week: { value: 123450, unit: 'cents' },
  },
  sector: 'hair_salon',
  findings: [
    { kind: 'level', metric: 'no_show_rate_30d', health: 'watch', value: 0.09, target: 0.06, unit: 'ratio', better: 'lower', against: 'sector', estimate: false },
  ],
  reasons: ['No-show rate (30 days) at 9%, above the hair salon benchmark of 6%.'],
};
const EVENT = '22222222-2222-4222-8222-222222222222';

/** The agent API as a turn's tools see it, recording what they asked for. */
function recordingApi(over: Partial<TurnApi> = {}) {
  const calls: Array<[keyof TurnApi, ...unknown[]]> = [];
  const api: TurnApi = {
    publishResults: async (body) => (calls.push(['publishResults', body]), { message: { id: 'm-card' }, cards: [{ id: 'c1', type: 'briefing', template: { name: 'briefing', version: 1 } }] }),
    publishArtifact: async (body) => (calls.push(['publishArtifact', body]), { artifact: { id: 'a1', currentVersion: 1 }, message: { id: 'm-chip' } }),
    reportOutcome: async (eventId, body) => (calls.push(['reportOutcome', eventId, body]), { eventId, status: body.status }),
    planetMetrics: async (workspaceId, planet) => (calls.push(['planetMetrics', workspaceId, planet]), { ...BOOKING_FIGURES, planet }),
    knownNames: async () => [],
    ...over,
  };
  return { api, calls };
}

function turn(
  kind: ConversationView['conversation']['kind'],
  body: string,
  over: { author?: Partial<Delivery['message']>; conversation?: Partial<ConversationView['conversation']>; agent?: Partial<AgentSelf>; api?: TurnApi } = {},
): TurnInput {
  const message = { id: 'm1', seq: 7, authorKind: 'person' as const, authorId: 'u1', authorName: 'Giulia', body, mentions: [], payload: {}, createdAt: new Date().toISOString(), ...over.author };
  return {
    agent: { ...nova, ...over.agent },
    api: over.api ?? recordingApi().api,
    delivery: { id: 'd1', workspaceId, conversationId: C1, conversationKind: kind, conversationName: kind === 'channel' ? 'general' : null, turn: 0, attempts: 1, leaseExpiresAt: new Date().toISOString(), message },
    view: {
      conversation: { id: C1, workspaceId, kind, name: kind === 'channel' ? 'general' : null, status: kind === 'thread' ? 'open' : null, parentConversationId: null, openedBy: null, resolutionMessageId: null, ...over.conversation },
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
    expect(request.text).not.toContain('Your instructions');
  });

  it('tells the model the instructions its owner wrote on the Agents screen', async () => {
    fake.script({ toolCalls: [{ name: 'reply', input: { message: 'No discounts, sorry.' } }] });
    await run(turn('dm', 'Can I have 20% off?', { agent: { instructions: 'Never promise a discount; offer the waitlist instead.' } }));
    expect(fake.requests[0]!.text).toContain('Your instructions from the business, in their words:\nNever promise a discount; offer the waitlist instead.');
  });

  it('hides the names the agent API gives for the turn’s workspace from the model, except the name of the person it answers', async () => {
    const asked: string[] = [];
    const api = recordingApi({ knownNames: async (ws) => (asked.push(ws), ['Mario Rossi', 'Giulia']) }).api;
    fake.script({ toolCalls: [{ name: 'reply', input: { message: 'Calling him.' } }] });
    await run(turn('dm', 'Giulia here: please call Mario Rossi.', { api }));
    expect(asked).toEqual([workspaceId]);
    expect(fake.requests[0]!.text).toMatch(/Giulia here: please call Cliente-[0-9A-F]{4}\./);
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

  it('offers the publishing tools of the registry, carried out through the agent API; a card and an empty reply answer the turn', async () => {
    const { api, calls } = recordingApi();
    const briefing = { type: 'briefing', data: { title: 'Morning briefing', sections: [] } };
    fake.script({ toolCalls: [{ name: 'publish_result', input: { conversationId: C1, results: [briefing] } }] }, { toolCalls: [{ name: 'reply', input: { message: '' } }] });
    expect(await run(turn('channel', 'Brief me, please', { api }))).toEqual({ kind: 'answered' });
    expect(calls).toEqual([['publishResults', { conversationId: C1, body: undefined, results: [briefing] }]]);
    const tools = (fake.requests[0]!.body.tools as Array<{ name: string }>).map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['publish_artifact', 'publish_result', 'reply', 'report_outcome']));
    // The model knows where it is, so it can name the conversation it publishes in.
    expect(fake.requests[0]!.text).toContain(`id ${C1}`);
    // The model saw what the API answered.
    expect(fake.requests[1]!.text).toContain('m-card');
  });

  it('reads the business through planet_metrics, for the turn’s workspace, and the model answers from what it returned', async () => {
    const { api, calls } = recordingApi();
    fake.script({ toolCalls: [{ name: 'planet_metrics', input: { planet: 'booking' } }] }, { toolCalls: [{ name: 'reply', input: { message: '11 bookings today.' } }] });
    expect(await run(turn('dm', 'How many bookings today?', { api }))).toEqual({ kind: 'reply', body: '11 bookings today.' });
    expect(calls).toEqual([['planetMetrics', workspaceId, 'booking']]);
    expect((fake.requests[0]!.body.tools as Array<{ name: string }>).map((t) => t.name)).toContain('planet_metrics');
    expect(fake.requests[1]!.text).toContain('no_show_rate_30d');
  });

  it('hands the API’s refusal to the model as a sentence, and a click on its card with its event', async () => {
    const { api } = recordingApi({
      publishArtifact: async () => {
        throw new AgentApiError(422, 'validation_failed', 'Check the content: Write something first.');
      },
    });
    fake.script(
      { toolCalls: [{ name: 'publish_artifact', input: { conversationId: C1, kind: 'document', title: 'Notes', content: ' ' } }] },
      { toolCalls: [{ name: 'reply', input: { message: 'I could not save the notes.' } }] },
    );
    expect(await run(turn('dm', 'Write the notes', { api }))).toEqual({ kind: 'reply', body: 'I could not save the notes.' });
    expect(fake.requests[1]!.text).toContain('Check the content: Write something first.');

    const clicked = recordingApi();
    const cardEvent = { eventId: EVENT, verb: 'fill_gap', cardType: 'briefing', cardData: { title: 'Morning briefing' } };
    fake.script({ toolCalls: [{ name: 'report_outcome', input: { eventId: EVENT, status: 'done', outcome: 'Offered 15:00 to Luca.' } }] }, { toolCalls: [{ name: 'reply', input: { message: '', pass: true } }] });
    expect(await run(turn('channel', '@Nova ▸ Fill the gap — Morning briefing', { api: clicked.api, author: { payload: { cardEvent } } }))).toEqual({ kind: 'answered' });
    expect(fake.requests.at(-2)!.text).toContain(`"eventId":"${EVENT}"`);
    expect(clicked.calls).toEqual([['reportOutcome', EVENT, { status: 'done', outcome: 'Offered 15:00 to Luca.' }]]);
  });

  it('says why when its backend cannot run, instead of going silent', async () => {
    const decision = await run(turn('dm', 'Hello', { agent: { backend: 'openai' } }));
    expect(decision).toEqual({ kind: 'reply', body: expect.stringMatching(/^I could not answer: .*OPENAI_API_KEY is not set/) });
  });
});

describe('the offline model in chat', () => {
  const decide = (input: TurnInput) => offlinePlan(input).decision;

  it('acknowledges what it cannot understand, quoting it without waking anyone', () => {
    expect(decide(turn('channel', 'Hi @Nova, how are <b>you</b>?'))).toEqual({
      kind: 'reply',
      body: 'Received: “Hi Nova, how are byou/b?”. I run on the offline model (no AI model is configured), so I only acknowledge messages like this one. Ask me how bookings, customers or sales are doing, or for a briefing or a draft.',
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

describe('the offline model publishing', () => {
  const run = createTurnRunner();
  const earlier: ConversationView['messages'] = [
    { id: 'm-a', seq: 3, authorKind: 'person', authorId: 'u1', authorName: 'Giulia', body: 'Can we move the 15:00 colour to Friday?', createdAt: new Date().toISOString() },
    { id: 'm-b', seq: 4, authorKind: 'agent', authorId: 'a-atlas', authorName: 'Atlas', body: 'Friday is full; Thursday works.', createdAt: new Date().toISOString() },
  ];
  /** The turn with the two messages above as what was said before (instead of Atlas's "Morning all."). */
  const withHistory = (input: TurnInput): TurnInput => ({ ...input, view: { ...input.view, messages: [...earlier, input.view.messages.at(-1)!] } });
  const onOffline = (input: TurnInput): TurnInput => ({ ...input, agent: { ...input.agent, backend: 'offline' } });

  it('answers a request for a briefing with a briefing card of what it read, with a Save as document button', () => {
    const plan = offlinePlan({ ...withHistory(turn('channel', 'Nova, can I have a briefing?')), now: new Date('2026-03-09T08:00:00Z') });
    expect(plan.decision).toEqual({ kind: 'answered' });
    expect(plan.calls).toEqual([
      {
        name: 'publish_result',
        input: {
          conversationId: C1,
          message: 'Here is what was said in #general, as a briefing.',
          results: [
            {
              type: 'briefing',
              data: {
                title: 'Briefing: #general',
                date: '2026-03-09',
                summary: '2 recent messages: 1 from people (Giulia), 1 from agents (Atlas). Compiled by Nova on the offline model, which lists what was said and does not interpret it.',
                metrics: [
                  { label: 'Messages', value: 2 },
                  { label: 'From people', value: 1 },
                  { label: 'From agents', value: 1 },
                  { label: 'Questions', value: 1 },
                ],
                sections: [
                  { heading: 'Questions asked', items: [{ text: 'Can we move the 15:00 colour to Friday?', detail: 'Giulia', tone: 'warning' }] },
                  {
                    heading: 'Latest',
                    items: [
                      { text: 'Can we move the 15:00 colour to Friday?', detail: 'Giulia' },
                      { text: 'Friday is full; Thursday works.', detail: 'Atlas' },
                    ],
                  },
                ],
              },
              actions: [{ id: 'save_document', label: { en: 'Save as document', it: 'Salva come documento' }, verb: 'save_document', style: 'primary' }],
            },
          ],
        },
      },
    ]);
    // Italian words work too; an agent asking never sets it off, and "ask NAME:" still comes first.
    expect(offlinePlan(turn('dm', 'Mi fai un riepilogo?')).calls[0]?.name).toBe('publish_result');
    expect(offlinePlan(turn('channel', 'briefing please', { author: { authorKind: 'agent', authorName: 'Atlas' } })).calls).toEqual([]);
    expect(offlinePlan(turn('channel', 'ask Atlas: a briefing please')).decision).toMatchObject({ kind: 'reply', body: expect.stringContaining('<dm target="Atlas">') });
  });

  it('answers "write a document about …" with a markdown outline of what was asked and said', () => {
    const plan = offlinePlan(withHistory(turn('dm', 'On Monday please draft a document about the spring menu.')));
    expect(plan.decision).toEqual({ kind: 'answered' });
    const [call] = plan.calls;
    expect(call).toMatchObject({ name: 'publish_artifact', input: { conversationId: C1, kind: 'document', title: 'The spring menu', message: 'A first draft of “The spring menu”, to edit.' } });
    const content = call!.input.content as string;
    expect(content.split('\n').slice(0, 1)).toEqual(['# The spring menu']);
    expect(content).toContain('> On Monday please draft a document about the spring menu. — Giulia');
    expect(content).toContain('- **Atlas:** Friday is full; Thursday works.');
    expect(offlinePlan(turn('dm', 'scrivi una bozza per la newsletter')).calls[0]).toMatchObject({ input: { title: 'La newsletter' } });
  });

  it('saves a clicked briefing as a document and reports it; a button it cannot act on is reported as such', () => {
    const cardData = { title: 'Briefing: #general', date: '2026-03-09', summary: 'Two messages.', metrics: [{ label: 'Messages', value: 2 }], sections: [{ heading: 'Latest', items: [{ text: 'Hello', detail: 'Giulia' }] }] };
    const click = (verb: string) => turn('channel', '@Nova ▸ Save as document — Briefing: #general', { author: { payload: { cardEvent: { eventId: EVENT, verb, cardType: 'briefing', cardData, label: { en: 'Fill the gap', it: 'Riempi' } } } } });
    const save = offlinePlan(click('save_document'));
    expect(save.calls).toEqual([
      {
        name: 'publish_artifact',
        input: {
          conversationId: C1,
          kind: 'document',
          title: 'Briefing: #general',
          content: '# Briefing: #general\n\n_2026-03-09_\n\nTwo messages.\n\n## Numbers\n\n- Messages: 2\n\n## Latest\n\n- Hello — Giulia\n',
          message: 'The briefing as a document: “Briefing: #general”.',
        },
      },
    ]);
    expect(save.report).toEqual({ eventId: EVENT, status: 'done', outcome: 'Saved as the document “Briefing: #general”.' });
    expect(offlinePlan(click('fill_gap'))).toEqual({
      language: 'en',
      calls: [],
      report: { eventId: EVENT, status: 'failed', outcome: 'Nova runs on the offline model and cannot do “Fill the gap”.' },
      decision: { kind: 'answered' },
    });
  });

  it('answers a person’s question about a part of the business with that planet’s figures, in English or Italian', () => {
    expect(offlinePlan(turn('dm', 'How are bookings this week?'))).toEqual({ language: 'en', calls: [{ name: 'planet_metrics', input: { planet: 'booking' } }], answerWithFigures: true, decision: { kind: 'answered' } });
    expect(offlinePlan(turn('channel', 'Come vanno le vendite?')).calls).toEqual([{ name: 'planet_metrics', input: { planet: 'sales' } }]);
    expect(offlinePlan(turn('dm', 'How many new leads?')).calls).toEqual([{ name: 'planet_metrics', input: { planet: 'crm' } }]);
    // Not a question, or not from a person: the other rules apply.
    expect(offlinePlan(turn('dm', 'I moved the bookings to Friday.')).calls).toEqual([]);
    expect(offlinePlan(turn('channel', 'How are bookings?', { author: { authorKind: 'agent', authorName: 'Atlas' } })).calls).toEqual([]);
  });

  it('writes the figures it read as the reply, and says so when they could not be read', async () => {
    const { api, calls } = recordingApi();
    const decision = await run(onOffline(turn('dm', 'How are bookings this week?', { api })));
    expect(calls).toEqual([['planetMetrics', workspaceId, 'booking']]);
    expect(decision).toEqual({
      kind: 'reply',
      body: [
        '**Booking**: watch.',
        '- Bookings today: **11** (previous period 9)',
        '- No-show rate (30 days): **9%** (previous period 7%, sector 6%)',
        '- Revenue this week: **€1,234.50**',
        '',
        'No-show rate (30 days) at 9%, above the hair salon benchmark of 6%.',
        '',
        '_Figures as read by the offline model (no AI model is configured): no interpretation beyond the sector benchmark._',
      ].join('\n'),
    });
    const refused = recordingApi({
      planetMetrics: async () => {
        throw new AgentApiError(404, 'not_found', 'The workspace was not found.');
      },
    });
    expect(await run(onOffline(turn('dm', 'How are bookings this week?', { api: refused.api })))).toEqual({
      kind: 'reply',
      body: expect.stringMatching(/^I could not read the figures: .*The workspace was not found/),
    });
  });

  it('answers in Italian a person who writes in Italian: the figures, the acknowledgement, the briefing and a button it cannot act on', async () => {
    const { api } = recordingApi();
    const figures = await run(onOffline(turn('dm', 'Come vanno le prenotazioni questa settimana?', { api })));
    expect(figures).toEqual({
      kind: 'reply',
      body: [
        '**Prenotazioni**: da seguire.',
        '- Prenotazioni oggi: **11** (periodo precedente 9)',
        '- Mancate presentazioni (30 giorni): **9%** (periodo precedente 7%, settore 6%)',
        '- Incasso della settimana: **1234,50\u00a0€**',
        '',
        'Mancate presentazioni (30 giorni): 9%, sopra il riferimento del settore parrucchiere (6%).',
        '',
        '_Numeri letti dal modello offline (non è configurato un modello AI): nessuna interpretazione oltre al riferimento del settore._',
      ].join('\n'),
    });
    expect(offlinePlan(turn('dm', 'Ciao Nova, ci sei domani?')).decision).toEqual({
      kind: 'reply',
      body: 'Ricevuto: “Ciao Nova, ci sei domani?”. Lavoro con il modello offline (non è configurato un modello AI), quindi a messaggi come questo posso solo rispondere che li ho ricevuti. Chiedimi come vanno prenotazioni, clienti o vendite, oppure un riepilogo o una bozza.',
    });
    const briefing = offlinePlan(turn('channel', 'Mi fai un riepilogo della settimana?')).calls[0]!.input as { message: string; results: Array<{ data: { title: string; metrics: Array<{ label: string }> } }> };
    expect(briefing.message).toBe('Ecco cosa si è detto in #general, in un riepilogo.');
    expect(briefing.results[0]!.data.title).toBe('Riepilogo: #general');
    expect(briefing.results[0]!.data.metrics.map((m) => m.label)).toEqual(['Messaggi', 'Da persone', 'Da agenti', 'Domande']);
    const cardEvent = { eventId: EVENT, verb: 'fill_gap', cardType: 'briefing', cardData: {}, label: { en: 'Fill the gap', it: 'Riempi il buco' } };
    expect(offlinePlan(turn('channel', '@Nova ▸ Riempi il buco — la settimana', { author: { payload: { cardEvent } } })).report).toEqual({
      eventId: EVENT,
      status: 'failed',
      outcome: 'Nova lavora con il modello offline e non può fare “Riempi il buco”.',
    });
  });

  it('tells Italian from English by the message’s common words, English when it cannot tell', () => {
    expect(languageOf('Come vanno le vendite?')).toBe('it');
    expect(languageOf('How are sales this week?')).toBe('en');
    expect(languageOf('Nova, briefing!')).toBe('en');
    expect(languageOf('Ciao, mi fai un riepilogo della giornata?')).toBe('it');
  });

  it('makes the planned calls through the runtime and the agent API, and reports a click only once they went through', async () => {
    const briefing = recordingApi();
    expect(await run(onOffline(turn('channel', 'A summary please', { api: briefing.api })))).toEqual({ kind: 'answered' });
    expect(briefing.calls).toEqual([['publishResults', expect.objectContaining({ conversationId: C1, results: [expect.objectContaining({ type: 'briefing' })] })]]);

    const cardEvent = { eventId: EVENT, verb: 'save_document', cardType: 'briefing', cardData: { title: 'Briefing: #general' } };
    const saved = recordingApi();
    expect(await run(onOffline(turn('channel', '@Nova ▸ Save as document', { api: saved.api, author: { payload: { cardEvent } } })))).toEqual({ kind: 'answered' });
    expect(saved.calls.map((c) => c[0])).toEqual(['publishArtifact', 'reportOutcome']);
    expect(saved.calls[1]).toEqual(['reportOutcome', EVENT, { status: 'done', outcome: 'Saved as the document “Briefing: #general”.' }]);

    const refused = recordingApi({
      publishArtifact: async () => {
        throw new AgentApiError(403, 'forbidden', 'You are not a member of this conversation.');
      },
    });
    expect(await run(onOffline(turn('channel', '@Nova ▸ Save as document', { api: refused.api, author: { payload: { cardEvent } } })))).toEqual({ kind: 'answered' });
    expect(refused.calls).toEqual([['reportOutcome', EVENT, { status: 'failed', outcome: expect.stringMatching(/^It did not work: .*not a member of this conversation/) }]]);
    const nothing = recordingApi({
      publishResults: async () => {
        throw new AgentApiError(422, 'validation_failed', 'The briefing has no title.');
      },
    });
    expect(await run(onOffline(turn('dm', 'briefing', { api: nothing.api })))).toEqual({
      kind: 'reply',
      body: expect.stringMatching(/^I could not publish it: .*The briefing has no title/),
    });
  });
});
