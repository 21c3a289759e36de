import { describe, expect, it } from 'vitest';
import { asService } from '@/lib/db';
import { claimDeliveries, createConversation, listMessages } from '@/lib/chat';
import { chatWorld } from '@/lib/chat/test-world';
import { setupTestDatabase } from '@/test/db';
import { createAgentKey, exchangeAgentCredential } from '@/lib/agents';
import * as claimRoute from '@/app/api/agents/me/deliveries/claim/route';
import { approvalResult } from '@/lib/home';
import { clickAction, expireApprovals, listCardMessages, publishResults, publishTemplate, readAttachments, reportOutcome, retireTemplate, stampResults } from '.';
import type { Block, Card } from '.';

setupTestDatabase();

const HOTEL = {
  name: 'Hotel Luce',
  image: 'https://images.example.test/luce.jpg',
  city: 'Bologna',
  stars: 4,
  rating: 8.7,
  reviews: 1234,
  pricePerNight: 140,
  currency: 'EUR',
  checkIn: '2026-03-10',
  checkOut: '2026-03-12',
  amenities: ['Breakfast', 'Spa'],
};

const payloadOf = (messageId: string) =>
  asService((tx) => tx.query<{ payload: Record<string, unknown> }>(`select payload from public.messages where id = $1`, [messageId])).then(([r]) => r!.payload);

/** Everything a card puts on screen, as text: what a person would read. */
function screenText(blocks: Block[]): string {
  return JSON.stringify(
    blocks.map((b) => {
      const { kind: _kind, ...rest } = b;
      return rest;
    }),
  );
}

describe('stamping', () => {
  it('resolves the template into the message, so changing the template later does not change a sent card', async () => {
    const w = await chatWorld();
    const { message, cards } = await publishResults(w.atlas.id, { conversationId: w.channel.id, results: [{ type: 'hotel', data: HOTEL }] });
    const sent = cards[0]!;
    expect(sent).toMatchObject({ id: 'c1', type: 'hotel', template: { name: 'hotel', version: 1 } });
    expect(sent.fallback).toBeUndefined();
    expect(sent.blocks.map((b) => b.kind)).toEqual(['image', 'title', 'rating', 'price', 'rows', 'chips']);
    expect(sent.blocks.find((b) => b.kind === 'rows')).toMatchObject({
      rows: [
        { label: { en: 'Stars', it: 'Stelle' }, value: { t: 'number', v: 4 } },
        { label: { en: 'Check-in', it: 'Arrivo' }, value: { t: 'date', v: '2026-03-10' } },
        { label: { en: 'Check-out', it: 'Partenza' }, value: { t: 'date', v: '2026-03-12' } },
      ],
    });
    expect(message.body).toBe('Hotel Luce');

    // The curators publish version 2 of the hotel template: a bare title and price.
    await publishTemplate({
      name: 'hotel',
      resultType: 'hotel',
      layout: [
        { kind: 'title', text: '{{name}} ({{city}})' },
        { kind: 'price', amount: 'pricePerNight', currency: 'currency' },
      ],
    });
    const stored = readAttachments(await payloadOf(message.id)).cards[0]!;
    expect(stored).toEqual(sent);
    const { cards: later } = await publishResults(w.atlas.id, { conversationId: w.channel.id, results: [{ type: 'hotel', data: HOTEL }] });
    expect(later[0]!.template).toEqual({ name: 'hotel', version: 2 });
    expect(later[0]!.blocks).toEqual([
      { kind: 'title', text: 'Hotel Luce (Bologna)' },
      { kind: 'price', amount: 140, currency: 'EUR' },
    ]);
  });

  it('uses a named template of the library', async () => {
    const w = await chatWorld();
    const { cards } = await publishResults(w.nova.id, {
      conversationId: w.channel.id,
      results: [{ type: 'hotel', template: 'hotel.compact', data: HOTEL }],
    });
    expect(cards[0]!.template).toEqual({ name: 'hotel.compact', version: 1 });
    expect(cards[0]!.blocks.map((b) => b.kind)).toEqual(['title', 'rating', 'price']);
  });

  it('falls back to the type’s default for an unknown, mismatched or retired template, and never shows raw data', async () => {
    const w = await chatWorld();
    const { cards } = await publishResults(w.atlas.id, {
      conversationId: w.channel.id,
      results: [
        { type: 'hotel', template: 'hotel.no-such-layout', data: HOTEL },
        { type: 'hotel', template: 'flight', data: HOTEL },
      ],
    });
    for (const card of cards) {
      expect(card.template).toMatchObject({ name: 'hotel' });
      expect(card.fallback).toBe('type_default');
    }

    await retireTemplate('deal');
    const deal = { title: 'Spa package', company: 'Rossi srl', value: 4800, currency: 'EUR', stage: 'proposal', probability: 60, nextStep: 'Call on Monday' };
    const { cards: dealCards } = await publishResults(w.atlas.id, { conversationId: w.channel.id, results: [{ type: 'deal', template: 'deal', data: deal }] });
    const fallback = dealCards[0]!;
    expect(fallback).toMatchObject({ template: null, fallback: 'type_default' });
    expect(fallback.blocks[0]).toEqual({ kind: 'title', text: 'Spa package' });
    expect(fallback.blocks[1]).toMatchObject({
      kind: 'rows',
      rows: expect.arrayContaining([
        { label: { en: 'Company', it: 'Azienda' }, value: { t: 'text', v: 'Rossi srl' } },
        { label: { en: 'Value', it: 'Valore' }, value: { t: 'money', v: 4800, currency: 'EUR' } },
        { label: 'Probability', value: { t: 'percent', v: 60 } },
      ]),
    });
  });

  it('shows an unknown type as a generic card built from the data’s shape', async () => {
    const w = await chatWorld();
    const data = {
      name: 'Vespa GTS 300',
      image: 'javascript:alert(1)',
      dailyRate: 45,
      available: true,
      colours: ['red', 'white'],
      specs: { engine: '278 cc', weight: 160, nested: { deep: 'no' } },
      history: [3, 5, 4, 8],
      review: 'A long text. '.repeat(20),
    };
    const { cards } = await publishResults(w.atlas.id, { conversationId: w.channel.id, results: [{ type: 'scooter_rental', data }] });
    const card = cards[0]!;
    expect(card).toMatchObject({ type: 'scooter_rental', template: null, fallback: 'generic' });
    expect(card.blocks.map((b) => b.kind)).toEqual(['title', 'rows', 'chips', 'trend', 'text']);
    expect(card.blocks[1]).toEqual({
      kind: 'rows',
      rows: [
        { label: 'Daily rate', value: { t: 'money', v: 45, currency: 'EUR' } },
        { label: 'Available', value: { t: 'bool', v: true } },
        { label: 'Specs · Engine', value: { t: 'text', v: '278 cc' } },
        { label: 'Specs · Weight', value: { t: 'number', v: 160 } },
      ],
    });
    // The unsafe image and the object two levels down are left out, not dumped.
    expect(screenText(card.blocks)).not.toMatch(/javascript:|deep|\{\\"/);

    // A type with no title field at all still gets a title: the type's name.
    const { cards: untitled } = await publishResults(w.atlas.id, { conversationId: w.channel.id, results: [{ type: 'weather_report', data: { celsius: 21 } }] });
    expect(untitled[0]!.blocks[0]).toEqual({ kind: 'title', text: 'Weather report' });
  });

  it('validates the data of known types with a sentence saying what is wrong', async () => {
    const w = await chatWorld();
    await expect(
      publishResults(w.atlas.id, { conversationId: w.channel.id, results: [{ type: 'flight', data: { airline: 'ITA', from: 'BLQ', to: 'CDG', departAt: 'tomorrow' } }] }),
    ).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringContaining('data of the flight result') });
    await expect(publishResults(w.stranger.id, { conversationId: w.channel.id, results: [{ type: 'hotel', data: HOTEL }] })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('stamps a Home proposal as the library’s approval card: what, why, the exact message to whom, the deadline', async () => {
    const proposal = { id: '7b0c1f7e-7a43-4a43-9d55-6a1b2f3c4d5e', argsHash: 'h-1', to: '+39 333 123 4567', message: 'Ciao Giulia,\na domani alle 9:30!', expiresAt: '2026-03-09T18:00:00.000Z' };
    const [card, other] = await stampResults([
      approvalResult(proposal, { what: 'Remind Giulia of Colour, tomorrow 09:30', why: 'The appointment is coming up and no reminder has been sent.', channel: 'SMS' }),
      approvalResult({ ...proposal, id: '0d6f4a4e-5b2c-4c1e-8f8a-1e2d3c4b5a69' }, { what: 'Invite Marco back', why: 'Usually comes every 30 days.', channel: 'WhatsApp' }),
    ]);
    expect(card).toMatchObject({ id: 'c1', type: 'approval', template: { name: 'approval', version: 2 }, expiresAt: '2026-03-09T18:00:00.000Z' });
    expect(card!.blocks).toEqual([
      { kind: 'title', text: 'Remind Giulia of Colour, tomorrow 09:30' },
      { kind: 'text', markdown: 'The appointment is coming up and no reminder has been sent.' },
      { kind: 'quote', caption: { en: 'SMS to +39 333 123 4567', it: 'SMS a +39 333 123 4567' }, text: 'Ciao Giulia,\na domani alle 9:30!' },
    ]);
    // Its buttons carry what the decisions API needs; Approve is bound to the hash of what is shown.
    expect(card!.actions.map((a) => [a.id, a.verb, a.style, a.data])).toEqual([
      ['approve', 'approve', 'primary', { decisionId: proposal.id, argsHash: 'h-1' }],
      ['reject', 'reject', 'secondary', { decisionId: proposal.id }],
    ]);
    expect(other).toMatchObject({ id: 'c2', blocks: expect.arrayContaining([{ kind: 'quote', caption: { en: 'WhatsApp to +39 333 123 4567', it: 'WhatsApp a +39 333 123 4567' }, text: proposal.message }]) });
    // An approval with no deadline of its own counts for a day.
    const [plain] = await stampResults([{ type: 'approval', data: { title: 'Refund 40 € to Marco', why: 'Double charge on 3 March' } }]);
    expect(plain!.blocks.map((b) => b.kind)).toEqual(['title', 'text']);
    expect(Date.parse(plain!.expiresAt!)).toBeGreaterThan(Date.now() + 23 * 60 * 60 * 1000);
  });
});

describe('actions on cards', () => {
  const EMAIL = { to: ['giulia@example.test'], subject: 'Your booking tomorrow', body: 'Ciao Giulia,\n\nsee you tomorrow at 9:30.' };

  async function emailCard() {
    const w = await chatWorld();
    const { message, cards } = await publishResults(w.iris.id, { conversationId: w.channel.id, results: [{ type: 'email', data: EMAIL }] });
    return { w, message, card: cards[0]! as Card };
  }

  it('hands a click to the agent through the pipeline and shows the outcome the agent reports', async () => {
    const { w, message, card } = await emailCard();
    expect(card.actions.map((a) => [a.id, a.verb, a.approval])).toEqual([
      ['send', 'send', true],
      ['save_draft', 'save_draft', false],
    ]);

    const click = await clickAction(w.coworker, message.id, { cardId: 'c1', actionId: 'save_draft' });
    expect(click.status).toBe('pending');
    expect(readAttachments(await payloadOf(message.id)).actionState['c1:save_draft']).toMatchObject({ eventId: click.eventId, status: 'pending' });
    await expect(clickAction(w.coworker, message.id, { cardId: 'c1', actionId: 'save_draft' })).rejects.toMatchObject({ code: 'conflict' });

    // The agent that made the card, and only it, gets the click as a delivery carrying the event.
    expect(await claimDeliveries(w.atlas.id, 'atlas-1')).toEqual([]);
    const [delivery] = await claimDeliveries(w.iris.id, 'iris-1');
    expect(delivery!.message).toMatchObject({ id: click.eventMessageId, authorKind: 'person', authorId: w.coworker.id, body: '@Iris ▸ Save draft — Your booking tomorrow' });
    expect(delivery!.message.payload.cardEvent).toMatchObject({
      eventId: click.eventId,
      messageId: message.id,
      cardId: 'c1',
      cardType: 'email',
      actionId: 'save_draft',
      verb: 'save_draft',
      cardData: { subject: 'Your booking tomorrow' },
    });

    // Another agent cannot answer for it; Iris reports once.
    await expect(reportOutcome(w.nova.id, click.eventId, { status: 'done' })).rejects.toMatchObject({ code: 'not_found' });
    await reportOutcome(w.iris.id, click.eventId, { status: 'done', outcome: 'Saved to Drafts' });
    await expect(reportOutcome(w.iris.id, click.eventId, { status: 'done' })).rejects.toMatchObject({ code: 'conflict' });
    const { messages } = await listMessages(w.owner, w.channel.id);
    const shown = readAttachments(messages.find((m) => m.id === message.id)!.payload);
    expect(shown.actionState['c1:save_draft']).toMatchObject({ status: 'done', outcome: 'Saved to Drafts' });
    expect(shown.cards).toEqual([card]);
  });

  it('hands the agent its own data back with the click, keys as it wrote them, through the HTTP API', async () => {
    const w = await chatWorld();
    const { message } = await publishResults(w.iris.id, {
      conversationId: w.channel.id,
      results: [{ type: 'lapsed_customer', data: { first_name: 'Giulia', customer_ref: 'C-17', last_visits: [{ visited_on: '2026-09-30' }] }, actions: [{ id: 'remind', label: 'Remind', verb: 'remind', data: { booking_id: 'b-7', slot_start: '09:30' } }] }],
    });
    await clickAction(w.coworker, message.id, { cardId: 'c1', actionId: 'remind' });

    const { key } = await createAgentKey(w.coworker, w.iris.id);
    const { token } = await exchangeAgentCredential(key);
    const response = await claimRoute.POST(
      new Request('http://test/api/agents/me/deliveries/claim', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ connectionId: 'iris-1' }) }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Array<{ message: { authorKind: string; payload: { cardEvent: Record<string, unknown> } } }> };
    // The envelope and the rows are camelCase; what the agent wrote comes back as written.
    expect(data[0]!.message.authorKind).toBe('person');
    expect(data[0]!.message.payload.cardEvent).toMatchObject({ actionId: 'remind', data: { booking_id: 'b-7', slot_start: '09:30' }, cardData: { first_name: 'Giulia', customer_ref: 'C-17', last_visits: [{ visited_on: '2026-09-30' }] } });
  });

  it('holds an external action for an owner’s or admin’s OK, then hands it on', async () => {
    const { w, message } = await emailCard();
    const click = await clickAction(w.coworker, message.id, { cardId: 'c1', actionId: 'send' });
    expect(click.status).toBe('awaiting_approval');
    // Nothing reached the agent yet.
    expect(await claimDeliveries(w.iris.id, 'iris-1')).toEqual([]);

    const approval = readAttachments(await payloadOf(click.approvalMessageId!)).cards[0]!;
    expect(approval).toMatchObject({ type: 'approval', approvalFor: click.eventId, expiresAt: click.expiresAt!.toISOString() });
    // The approval shows exactly what will be sent.
    expect(approval.blocks).toContainEqual({ kind: 'text', markdown: EMAIL.body });

    // A plain member cannot approve; the owner can.
    await expect(clickAction(w.coworker, click.approvalMessageId!, { cardId: 'approval', actionId: 'approve' })).rejects.toMatchObject({ code: 'forbidden' });
    const approved = await clickAction(w.owner, click.approvalMessageId!, { cardId: 'approval', actionId: 'approve' });
    expect(approved).toMatchObject({ eventId: click.eventId, status: 'pending' });
    await expect(clickAction(w.owner, click.approvalMessageId!, { cardId: 'approval', actionId: 'reject' })).rejects.toMatchObject({ code: 'conflict' });

    const [delivery] = await claimDeliveries(w.iris.id, 'iris-1');
    expect(delivery!.message.payload.cardEvent).toMatchObject({ verb: 'send', approvedBy: w.owner.id });
    await reportOutcome(w.iris.id, click.eventId, { status: 'done', outcome: 'Sent to giulia@example.test' });
    expect(readAttachments(await payloadOf(message.id)).actionState['c1:send']).toMatchObject({ status: 'done', outcome: 'Sent to giulia@example.test' });
    expect(readAttachments(await payloadOf(click.approvalMessageId!)).actionState['approval:approve']).toMatchObject({ status: 'done', outcome: 'Approved by owner' });
    // Sent once is sent: the button does not send again.
    await expect(clickAction(w.owner, message.id, { cardId: 'c1', actionId: 'send' })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('lets an approval expire, after which it cannot be approved', async () => {
    const { w, message } = await emailCard();
    const click = await clickAction(w.owner, message.id, { cardId: 'c1', actionId: 'send' });
    expect(await expireApprovals(new Date(Date.now() + 60_000))).toBe(0);
    expect(await expireApprovals(new Date(Date.now() + 25 * 60 * 60 * 1000))).toBe(1);
    expect(readAttachments(await payloadOf(message.id)).actionState['c1:send']).toMatchObject({ status: 'expired' });
    await expect(clickAction(w.owner, click.approvalMessageId!, { cardId: 'approval', actionId: 'approve' })).rejects.toMatchObject({ code: 'conflict' });
    expect(await claimDeliveries(w.iris.id, 'iris-1')).toEqual([]);
    // A fresh click asks again.
    expect((await clickAction(w.owner, message.id, { cardId: 'c1', actionId: 'send' })).status).toBe('awaiting_approval');
  });

  it('refuses an OK given after the deadline, before the sweep ran: nothing reaches the agent and both cards say expired', async () => {
    const { w, message } = await emailCard();
    const click = await clickAction(w.owner, message.id, { cardId: 'c1', actionId: 'send' });
    await asService((tx) => tx.query(`update public.card_actions set expires_at = now() - interval '1 minute' where id = $1`, [click.eventId]));
    await expect(clickAction(w.owner, click.approvalMessageId!, { cardId: 'approval', actionId: 'approve' })).rejects.toMatchObject({ code: 'gone' });
    expect(await claimDeliveries(w.iris.id, 'iris-1')).toEqual([]);
    expect(readAttachments(await payloadOf(message.id)).actionState['c1:send']).toMatchObject({ status: 'expired' });
    expect(readAttachments(await payloadOf(click.approvalMessageId!)).actionState['approval:approve']).toMatchObject({ status: 'expired' });
    // Expired stays expired: asking again is refused too, and the sweep has nothing left to do.
    await expect(clickAction(w.owner, click.approvalMessageId!, { cardId: 'approval', actionId: 'approve' })).rejects.toMatchObject({ code: 'conflict' });
    expect(await expireApprovals()).toBe(0);
    expect(await claimDeliveries(w.iris.id, 'iris-1')).toEqual([]);
  });

  it('hands the decision on an agent’s own approval card to that agent, once, before it expires', async () => {
    const w = await chatWorld();
    const { message } = await publishResults(w.nova.id, {
      conversationId: w.channel.id,
      results: [{ type: 'approval', data: { title: 'Refund 40 € to Marco', why: 'Double charge on 3 March' } }],
    });
    await expect(clickAction(w.coworker, message.id, { cardId: 'c1', actionId: 'approve' })).rejects.toMatchObject({ code: 'forbidden' });
    const decision = await clickAction(w.owner, message.id, { cardId: 'c1', actionId: 'reject', locale: 'it' });
    expect(decision.status).toBe('pending');
    await expect(clickAction(w.owner, message.id, { cardId: 'c1', actionId: 'approve' })).rejects.toMatchObject({ code: 'conflict' });
    const [delivery] = await claimDeliveries(w.nova.id, 'nova-1');
    expect(delivery!.message).toMatchObject({ body: '@Nova ▸ Ignora — Refund 40 € to Marco' });
    expect(delivery!.message.payload.cardEvent).toMatchObject({ verb: 'reject', cardType: 'approval' });

    const { message: old } = await publishResults(w.nova.id, {
      conversationId: w.channel.id,
      results: [{ type: 'approval', data: { title: 'Old request', why: 'x', expiresAt: '2020-01-01T00:00:00Z' } }],
    });
    await expect(clickAction(w.owner, old.id, { cardId: 'c1', actionId: 'approve' })).rejects.toMatchObject({ code: 'gone' });
    expect(await claimDeliveries(w.nova.id, 'nova-1')).toEqual([]);
  });

  it('refuses clicks from people who cannot read the message, and lists a conversation’s cards', async () => {
    const { w, message } = await emailCard();
    await expect(clickAction(w.stranger, message.id, { cardId: 'c1', actionId: 'save_draft' })).rejects.toMatchObject({ code: 'not_found' });
    const { conversation: dm } = await createConversation(w.owner, { kind: 'dm', workspaceId: w.team.id, agentIds: [w.atlas.id] });
    const { message: privateCard } = await publishResults(w.atlas.id, { conversationId: dm.id, results: [{ type: 'email', data: EMAIL }] });
    await expect(clickAction(w.coworker, privateCard.id, { cardId: 'c1', actionId: 'save_draft' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(listCardMessages(w.coworker, dm.id)).rejects.toMatchObject({ code: 'not_found' });
    expect((await listCardMessages(w.owner, dm.id)).map((m) => m.id)).toEqual([privateCard.id]);
  });
});
