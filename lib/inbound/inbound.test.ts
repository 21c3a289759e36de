import twilio from 'twilio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as emailRoute from '@/app/api/webhooks/email/[secret]/route';
import * as twilioRoute from '@/app/api/webhooks/twilio/inbound/[workspaceId]/route';
import { startFakeModelServer, useFakeModelEnv, type FakeModelServer } from '@/lib/agent/testing';
import { createAgent } from '@/lib/agents';
import { HostedSupervisor } from '@/lib/bridge';
import { saveChannelSettings, sendDueMessages } from '@/lib/channels';
import { startTwilioStandIn, type TwilioStandIn } from '@/lib/channels/testing';
import { listMessages } from '@/lib/chat';
import { composeDailyBrief } from '@/lib/home';
import { resetConfigForTests } from '@/lib/config';
import { asService, type SessionUser } from '@/lib/db';
import { newKeyEntry } from '@/lib/secrets';
import { createWorkspace, type Workspace } from '@/lib/workspaces';
import { inProcessFetch, IN_PROCESS_URL } from '@/server/agent-api';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { waitFor } from '@/test/wait';
import { issueEmailInboundUrl, twilioInboundUrl } from '.';

/**
 * Replies come back: Twilio's webhook (signed with the SDK's own getExpectedTwilioSignature under the
 * workspace's auth token, as Twilio signs) and a raw email posted to the workspace's secret URL land in
 * the customer's conversation; a hosted agent on the anthropic backend (the fake model server) answers
 * through the bridge, and its answer is proposed, queued or not sent as autonomy says. Every request the
 * model server recorded is checked for the customer's name and number.
 */

process.env.LOG_LEVEL = 'silent';
setupTestDatabase();

const AUTH_TOKEN = 'twilio-token-0123456789abcdef';
const SID = 'AC' + '0123456789abcdef'.repeat(2);
const MARIO = { name: 'Mario Rossi', phone: '+39 333 123 4567', e164: '+393331234567', email: 'mario.rossi@example.it' };
const ANNA = { name: 'Anna Bianchi', phone: '333 765 4321', e164: '+393337654321' };

let fake: FakeModelServer;
let restoreEnv: () => void;
let supervisor: HostedSupervisor;
let owner: SessionUser;
let salon: Workspace;
let sids = 0;
let twilioApi: TwilioStandIn;

beforeAll(async () => {
  process.env.SECRETS_KEYS = newKeyEntry('k1');
  process.env.INBOUND_EMAIL_DOMAIN = 'in.multiverbe.test';
  twilioApi = await startTwilioStandIn({ sid: SID, token: AUTH_TOKEN });
  process.env.TWILIO_API_BASE_URL = twilioApi.baseUrl;
  resetConfigForTests();
  fake = await startFakeModelServer();
  restoreEnv = useFakeModelEnv({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url, MODEL_BACKEND: 'anthropic', AGENT_MAX_RETRIES: '0' });
  owner = await createUser('owner');
  salon = await createWorkspace(owner, { name: 'Studio Luce', timeZone: 'Europe/Rome', locale: 'it', sector: 'hair_salon' });
  await saveChannelSettings(owner, salon.id, { twilio: { accountSid: SID, authToken: AUTH_TOKEN, smsFrom: '+15005550006' } });
  await asService((tx) =>
    tx.query(
      `insert into public.customers (workspace_id, name, email, phone, consent_messages, consent_marketing) values
         ($1, $2, $3, $4, true, true), ($1, $5, null, $6, true, false)`,
      [salon.id, MARIO.name, MARIO.email, MARIO.phone, ANNA.name, ANNA.phone],
    ),
  );
  await createAgent(owner, { name: 'Nova', role: 'Receptionist', runtime: 'hosted', backend: 'anthropic' });
  supervisor = new HostedSupervisor({ host: 'test-host', fetch: inProcessFetch, url: IN_PROCESS_URL, bridge: { backoff: { initialMs: 50, maxMs: 200 } } });
  await supervisor.start();
});
afterAll(async () => {
  await supervisor.stop();
  restoreEnv();
  await fake.close();
  await twilioApi.close();
  delete process.env.INBOUND_EMAIL_DOMAIN;
  delete process.env.TWILIO_API_BASE_URL;
});
afterEach(() => fake.reset());

/** Twilio's POST for an incoming message, signed as Twilio signs it (or with `signature`). */
async function twilioPost(from: string, body: string, signature?: string) {
  const params = { MessageSid: `SM${String(++sids).padStart(32, '0')}`, AccountSid: SID, From: from, To: '+15005550006', Body: body, NumMedia: '0' };
  const url = twilioInboundUrl(salon.id);
  const req = new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature ?? twilio.getExpectedTwilioSignature(AUTH_TOKEN, url, params) },
    body: new URLSearchParams(params).toString(),
  });
  return twilioRoute.POST(req, { params: Promise.resolve({ workspaceId: salon.id }) });
}

const setCrm = (autonomy: 'off' | 'propose' | 'auto') =>
  asService((tx) =>
    tx.query(
      `insert into public.workspace_planet_autonomy (workspace_id, planet, autonomy) values ($1, 'crm', $2)
       on conflict (workspace_id, planet) do update set autonomy = excluded.autonomy`,
      [salon.id, autonomy],
    ),
  );

const counts = () =>
  asService(async (tx) => {
    const [row] = await tx.query<{ messages: number; conversations: number; outbox: number; decisions: number }>(
      `select (select count(*)::int from public.messages where workspace_id = $1) as messages,
              (select count(*)::int from public.conversations where workspace_id = $1) as conversations,
              (select count(*)::int from public.outbox_messages where workspace_id = $1) as outbox,
              (select count(*)::int from public.agent_decisions where workspace_id = $1) as decisions`,
      [salon.id],
    );
    return row!;
  });

const conversationOf = async (customerName: string) => {
  const [row] = await asService((tx) =>
    tx.query<{ conversation_id: string; customer_id: string | null }>(
      `select cc.conversation_id, cc.customer_id from public.customer_conversations cc join public.customers c on c.id = cc.customer_id
        where cc.workspace_id = $1 and c.name = $2`,
      [salon.id, customerName],
    ),
  );
  return row;
};

/** The agent's message after the customer's last one, as the owner reads the conversation. */
const agentAnswer = (conversationId: string, afterBody: string) =>
  waitFor(async () => {
    const { messages } = await listMessages(owner, conversationId);
    const at = messages.map((m) => m.body).lastIndexOf(afterBody);
    return at >= 0 && messages.slice(at + 1).find((m) => m.author.kind === 'agent');
  }, 'the agent to answer');

/** No model request held the customer's name or number, in any spelling. */
function expectNoCustomerData() {
  expect(fake.requests.length).toBeGreaterThan(0);
  for (const r of fake.requests) {
    for (const real of ['Mario', 'Rossi', 'Anna', 'Bianchi', '333 123 4567', '3331234567', '3337654321', 'mario.rossi']) {
      expect(r.text, `a model request held "${real}"`).not.toContain(real);
    }
  }
}

describe('an SMS reply from a customer', () => {
  it('with a wrong signature gets 403 and changes nothing', async () => {
    const before = await counts();
    const res = await twilioPost(MARIO.e164, 'Ciao, posso spostare?', 'bm90IGEgc2lnbmF0dXJl');
    expect(res.status).toBe(403);
    expect((await res.json()).success).toBe(false);
    const unsigned = await twilioRoute.POST(new Request(twilioInboundUrl(salon.id), { method: 'POST', body: 'From=%2B393331234567&Body=hi' }), {
      params: Promise.resolve({ workspaceId: salon.id }),
    });
    expect(unsigned.status).toBe(403);
    expect(await counts()).toEqual(before);
    expect(fake.requests).toHaveLength(0);
  });

  it('under propose: lands in the customer’s conversation, and the agent’s answer waits on Home for an OK', async () => {
    await setCrm('propose');
    fake.script({ toolCalls: [{ name: 'reply', input: { message: 'Certo, domani alle 10 va bene?' } }] });
    const text = 'Ciao sono Mario Rossi, posso spostare a domani? Il mio numero è +39 333 123 4567';
    const res = await twilioPost(MARIO.e164, text);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/xml');

    const conversation = (await conversationOf(MARIO.name))!;
    const { messages } = await listMessages(owner, conversation.conversation_id);
    expect(messages[0]).toMatchObject({ body: text, author: { kind: 'customer', name: MARIO.name } });
    const answer = await agentAnswer(conversation.conversation_id, text);
    expect(answer.body).toBe('Certo, domani alle 10 va bene?');
    expect(answer.payload).toMatchObject({ customerReply: { status: 'proposed' } });

    const [decision] = await asService((tx) =>
      tx.query<{ status: string; tier: string; args: Record<string, unknown> }>(
        `select status, tier, args from public.agent_decisions where workspace_id = $1 and action_type = 'customer_reply'`,
        [salon.id],
      ),
    );
    expect(decision).toMatchObject({ status: 'proposed', tier: 'propose', args: { channel: 'sms', to: MARIO.e164, message: 'Certo, domani alle 10 va bene?' } });
    const home = await composeDailyBrief(owner, salon.id);
    expect(home.proposals.map((p) => [p.action_type, p.details.customerName])).toEqual([['customer_reply', MARIO.name]]);
    expect((await counts()).outbox).toBe(0);
    expectNoCustomerData();
  });

  it('under auto: the answer is queued to the customer’s number, and the send pass hands it to Twilio', async () => {
    await setCrm('auto');
    fake.script({ toolCalls: [{ name: 'reply', input: { message: 'Perfetto, ti aspettiamo.' } }] });
    const text = 'Va bene, grazie! Mario';
    expect((await twilioPost(MARIO.e164, text)).status).toBe(200);
    const conversation = (await conversationOf(MARIO.name))!;
    const answer = await agentAnswer(conversation.conversation_id, text);
    expect(answer.payload).toMatchObject({ customerReply: { status: 'queued' } });
    const outbox = await asService((tx) =>
      tx.query<{ channel: string; recipient: string; body: string; status: string }>(
        `select channel, recipient, body, status from public.outbox_messages where workspace_id = $1`,
        [salon.id],
      ),
    );
    expect(outbox).toEqual([{ channel: 'sms', recipient: MARIO.e164, body: 'Perfetto, ti aspettiamo.', status: 'queued' }]);
    expectNoCustomerData();

    // Sent when due (after the undo delay, outside the quiet hours), through Twilio's REST API (the stand-in).
    const [due] = await asService((tx) => tx.query<{ id: string; send_after: Date }>(`select id, send_after from public.outbox_messages where workspace_id = $1`, [salon.id]));
    expect(await sendDueMessages(due!.send_after, [due!.id])).toMatchObject({ sent: 1 });
    expect(twilioApi.requests.map((r) => [r.params.To, r.params.Body])).toEqual([[MARIO.e164, 'Perfetto, ti aspettiamo.']]);
  });

  it('under off: lands, and no agent is asked (no model call, nothing proposed or queued)', async () => {
    await setCrm('off');
    const before = await counts();
    expect((await twilioPost(ANNA.e164, 'Avete posto sabato?')).status).toBe(200);
    const conversation = (await conversationOf(ANNA.name))!;
    const { messages } = await listMessages(owner, conversation.conversation_id);
    expect(messages.map((m) => [m.author.kind, m.body])).toEqual([['customer', 'Avete posto sabato?']]);
    expect(messages[0]!.payload).toMatchObject({ inbound: { unanswered: 'autonomy_off' } });
    const after = await counts();
    expect(after).toEqual({ ...before, messages: before.messages + 1, conversations: before.conversations + 1 });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('STOP', () => {
  const outboxTo = (to: string) =>
    asService((tx) =>
      tx.query<{ body: string; status: string; send_after: Date; created_at: Date }>(
        `select body, status, send_after, created_at from public.outbox_messages where workspace_id = $1 and recipient = $2 order by created_at`,
        [salon.id, to],
      ),
    );

  it('revokes consent at once, cancels what was queued, and queues and sends exactly one confirmation', async () => {
    await setCrm('auto');
    fake.script({ toolCalls: [{ name: 'reply', input: { message: 'Ti mandiamo il listino.' } }] });
    const conversation = (await conversationOf(MARIO.name))!;
    await twilioPost(MARIO.e164, 'Mi mandate il listino?');
    await agentAnswer(conversation.conversation_id, 'Mi mandate il listino?');
    expect((await outboxTo(MARIO.e164)).map((m) => m.status)).toEqual(['sent', 'queued']);
    fake.reset();
    twilioApi.requests.length = 0;

    expect((await twilioPost(MARIO.e164, ' Stop! ')).status).toBe(200);
    const [consent] = await asService((tx) =>
      tx.query(`select consent_messages, consent_marketing from public.customers where workspace_id = $1 and name = $2`, [salon.id, MARIO.name]),
    );
    expect(consent).toEqual({ consent_messages: false, consent_marketing: false });
    const after = await outboxTo(MARIO.e164);
    expect(after.map((m) => m.status)).toEqual(['sent', 'cancelled', 'queued']);
    const confirmation = 'Non riceverai più messaggi da Studio Luce. Se cambi idea, diccelo di persona o al telefono.';
    expect(after[2]!.body).toBe(confirmation);
    expect(after[2]!.send_after.getTime()).toBe(after[2]!.created_at.getTime());

    // Another opt-out, and a message after it: nothing more is queued and no agent is asked.
    expect((await twilioPost(MARIO.e164, 'NON SCRIVERMI PIÙ')).status).toBe(200);
    expect((await twilioPost(MARIO.e164, 'ok ciao')).status).toBe(200);
    expect((await outboxTo(MARIO.e164)).map((m) => m.status)).toEqual(['sent', 'cancelled', 'queued']);
    expect(fake.requests).toHaveLength(0);

    // The send pass hands the confirmation on although consent is gone (and whatever the hour), and nothing else.
    await sendDueMessages(new Date());
    expect(twilioApi.requests.map((r) => [r.params.To, r.params.Body])).toEqual([[MARIO.e164, confirmation]]);
    expect((await outboxTo(MARIO.e164)).map((m) => m.status)).toEqual(['sent', 'cancelled', 'sent']);
  });

  it('in Italian (ARRESTA) does the same', async () => {
    expect((await twilioPost(ANNA.e164, 'arresta.')).status).toBe(200);
    const [consent] = await asService((tx) => tx.query(`select consent_messages from public.customers where workspace_id = $1 and name = $2`, [salon.id, ANNA.name]));
    expect(consent).toEqual({ consent_messages: false });
    expect((await outboxTo(ANNA.e164)).map((m) => m.status)).toEqual(['queued']);
  });
});

describe('an email reply', () => {
  it('posted raw to the workspace’s secret URL lands in the same customer’s conversation', async () => {
    await setCrm('off');
    const { url, address } = await issueEmailInboundUrl(salon.id);
    expect(address).toMatch(/^reply\+[a-z0-9]+@in\.multiverbe\.test$/);
    const raw = [
      'From: "Mario Rossi" <Mario.Rossi@example.it>',
      `To: ${address}`,
      'Subject: Re: Il tuo appuntamento',
      'Message-ID: <abc123@example.it>',
      'Date: Thu, 03 Dec 2026 10:00:00 +0100',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      'Arrivo 10 minuti più tardi.',
      '',
      'Il giorno mer 2 dic 2026, Studio Luce ha scritto:',
      '> Ti ricordiamo l’appuntamento',
      '',
    ].join('\r\n');
    const post = (secret: string) =>
      emailRoute.POST(new Request(url, { method: 'POST', headers: { 'content-type': 'message/rfc822' }, body: raw }), { params: Promise.resolve({ secret }) });
    const secret = new URL(url).pathname.split('/').pop()!;

    expect((await post('0'.repeat(48))).status).toBe(404);
    const res = await post(secret);
    expect(res.status).toBe(200);
    expect((await post(secret)).status).toBe(200); // the provider's retry lands once

    const conversation = (await conversationOf(MARIO.name))!;
    const { messages } = await listMessages(owner, conversation.conversation_id);
    const emails = messages.filter((m) => (m.payload as { inbound?: { channel?: string } }).inbound?.channel === 'email');
    expect(emails.map((m) => m.body)).toEqual(['Arrivo 10 minuti più tardi.']);
    const [contact] = await asService((tx) => tx.query(`select channel, email from public.customer_conversations where conversation_id = $1`, [conversation.conversation_id]));
    expect(contact).toEqual({ channel: 'email', email: MARIO.email });
  });
});

describe('an unknown sender', () => {
  it('gets a conversation for the number, and no customer is made up', async () => {
    await setCrm('off');
    const customers = async () => (await asService((tx) => tx.query(`select count(*)::int as n from public.customers where workspace_id = $1`, [salon.id])))[0];
    const before = await customers();
    expect((await twilioPost('whatsapp:+447700900123', 'Hello, are you open on Sunday?')).status).toBe(200);
    expect((await twilioPost('whatsapp:+447700900123', 'Thanks')).status).toBe(200);
    const rows = await asService((tx) =>
      tx.query(`select cc.customer_id, cc.phone, cc.channel, c.name from public.customer_conversations cc join public.conversations c on c.id = cc.conversation_id where cc.workspace_id = $1 and cc.customer_id is null`, [salon.id]),
    );
    expect(rows).toEqual([{ customer_id: null, phone: '+447700900123', channel: 'whatsapp', name: '+447700900123' }]);
    expect(await customers()).toEqual(before);
  });
});
