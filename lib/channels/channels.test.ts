import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as twilioStatus } from '@/app/api/webhooks/twilio/status/route';
import { queueMessage } from '@/lib/actions';
import { approveDecision, submitAction } from '@/lib/autonomy';
import { createSalon, type Salon } from '@/lib/autonomy/test-world';
import { resetConfigForTests } from '@/lib/config';
import { asService } from '@/lib/db';
import { newKeyEntry } from '@/lib/secrets';
import { setupTestDatabase } from '@/test/db';
import { saveChannelSettings, sendDueMessages } from '.';
import { startSmtpStandIn, startTwilioStandIn, type SmtpStandIn, type TwilioStandIn } from './testing';

setupTestDatabase();

/**
 * The outbox's providers end to end: nodemailer against a real SMTP server on loopback (parsed with
 * mailparser), Twilio's SDK against a stand-in of its REST API, and Twilio's signed status callbacks.
 * Clocks are passed in (`now`), never faked.
 */
const APP_URL = 'https://salon.example.test';
const TWILIO = { sid: 'AC' + '5'.repeat(32), token: 'stand-in-auth-token-0123' };
// Monday 30 November 2026, 10:00 in Rome: outside the quiet hours.
const NOW = new Date('2026-11-30T09:00:00Z');
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

let salon: Salon;
let smtp: SmtpStandIn;
let twilioApi: TwilioStandIn;
const ws = () => salon.workspace.id;
const q = <T = Record<string, any>>(sql: string, params: unknown[] = []) => asService((tx) => tx.query<T>(sql, params));
const message = (id: string) => q(`select * from public.outbox_messages where id = $1`, [id]).then((rows) => rows[0]!);

async function customer(name: string, contact: { email?: string; phone?: string }) {
  const [row] = await q<{ id: string }>(
    `insert into public.customers (workspace_id, name, email, phone, consent_messages) values ($1, $2, $3, $4, true) returning id`,
    [ws(), name, contact.email ?? null, contact.phone ?? null],
  );
  return row!.id;
}

async function queue(channel: 'sms' | 'email', customerId: string, recipient: string, now = NOW) {
  return asService((tx) =>
    queueMessage(tx, { workspaceId: ws(), timeZone: 'Europe/Rome', decisionId: null, customerId, channel, recipient, recipientName: 'Lucia', subject: 'Ciao', body: 'Ciao Lucia, a domani!', now }),
  ).then((m) => m.id);
}

beforeAll(async () => {
  process.env.SECRETS_KEYS = newKeyEntry('k1');
  process.env.APP_URL = APP_URL;
  smtp = await startSmtpStandIn();
  twilioApi = await startTwilioStandIn(TWILIO);
  process.env.TWILIO_API_BASE_URL = twilioApi.baseUrl;
  resetConfigForTests();
  salon = await createSalon();
});

afterAll(async () => {
  await Promise.all([smtp.close(), twilioApi.close()]);
  delete process.env.TWILIO_API_BASE_URL;
  resetConfigForTests();
});

describe('with no provider connected', () => {
  it('keeps a due message queued: nothing is called sent', async () => {
    const id = await queue('email', await customer('Nadia Ferri', { email: 'nadia@example.test' }), 'nadia@example.test');
    expect(await sendDueMessages(at(31), [id])).toMatchObject({ sent: 0, waiting: 1 });
    expect(await message(id)).toMatchObject({ status: 'queued', provider: null, sent_at: null, attempts: 0, error: null });
    expect(smtp.received).toHaveLength(0);
  });
});

describe('email over SMTP', () => {
  beforeAll(async () => {
    await saveChannelSettings(salon.owner, ws(), {
      email: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'Studio Aurora <desk@aurora.example.test>', replyTo: 'reply@aurora.example.test' },
    });
  });

  it('delivers a reminder approved on Home as a well-formed email', async () => {
    const customerId = await customer('Giulia Rossi', { email: 'giulia@example.test' });
    const [appointment] = await q<{ id: string }>(
      `insert into public.appointments (workspace_id, customer_id, service_id, staff_id, starts_at, ends_at, price_cents)
       select $1, $2, (select id from public.services where workspace_id = $1 order by name limit 1), (select id from public.staff where workspace_id = $1 order by name limit 1),
              '2026-12-02T09:00:00Z', '2026-12-02T09:45:00Z', 3800
       returning id`,
      [ws(), customerId],
    );
    const proposal = await asService((tx) => submitAction(tx, { workspaceId: ws(), type: 'booking_reminder', input: { appointmentId: appointment!.id }, trigger: 'test', now: NOW }));
    if (proposal.status !== 'proposed') throw new Error(`expected a proposal, got ${JSON.stringify(proposal)}`);
    const approved = await approveDecision(salon.owner, ws(), proposal.decisionId, { argsHash: proposal.argsHash, now: NOW });
    expect(approved.delivery).toMatchObject({ status: 'queued' });
    const [queued] = await q(`select * from public.outbox_messages where decision_id = $1`, [proposal.decisionId]);

    // Within the undo window nothing leaves.
    expect(await sendDueMessages(at(29), [queued!.id])).toMatchObject({ sent: 0 });
    expect(smtp.received).toHaveLength(0);
    expect(await sendDueMessages(at(30), [queued!.id])).toMatchObject({ sent: 1 });

    const sent = await message(queued!.id);
    expect(sent).toMatchObject({ status: 'sent', provider: 'smtp', sent_at: at(30), attempts: 1, handing_at: null, error: null });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.from?.value).toEqual([{ address: 'desk@aurora.example.test', name: 'Studio Aurora' }]);
    expect(mail.to).toMatchObject({ value: [{ address: 'giulia@example.test' }] });
    expect(mail.replyTo?.value).toEqual([{ address: 'reply@aurora.example.test', name: '' }]);
    expect(mail.subject).toBe(queued!.subject);
    expect(mail.messageId).toBe(sent.provider_message_id);
    expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@aurora\.example\.test>$/);
    expect(mail.date).toBeInstanceOf(Date);
    expect(mail.headerLines.find((h) => h.key === 'list-unsubscribe')?.line).toBe('List-Unsubscribe: <mailto:reply@aurora.example.test?subject=STOP>');
    expect(mail.text?.trim()).toBe(queued!.body);
    expect(mail.html).toContain('<html lang="it">');
    expect(mail.html).toContain(queued!.body.replace(/'/g, '&#39;'));
    expect(mail.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });

    // The pass again: a sent message is never sent twice.
    await sendDueMessages(at(600));
    expect(smtp.received).toHaveLength(1);
  });

  it('records a refusal with its reason, retries after the backoff, and sends once', async () => {
    const before = smtp.received.length;
    const id = await queue('email', await customer('Marta Bianchi', { email: 'marta@example.test' }), 'marta@example.test');
    smtp.refuseNext(451);
    expect(await sendDueMessages(at(30), [id])).toMatchObject({ sent: 0, retrying: 1 });
    const refused = await message(id);
    expect(refused).toMatchObject({ status: 'queued', attempts: 1, next_attempt_at: at(90), provider: 'smtp', sent_at: null });
    expect(refused.error).toMatch(/451/);
    expect(smtp.received).toHaveLength(before);

    // Not before its time.
    expect(await sendDueMessages(at(89), [id])).toMatchObject({ sent: 0, retrying: 0 });
    expect(await sendDueMessages(at(90), [id])).toMatchObject({ sent: 1 });
    expect(await message(id)).toMatchObject({ status: 'sent', attempts: 2, error: null, next_attempt_at: null, provider_message_id: refused.provider_message_id });
    await sendDueMessages(at(3600));
    expect(smtp.received.filter((m) => m.to && JSON.stringify(m.to).includes('marta@example.test'))).toHaveLength(1);
  });

  it('fails a message with the reason after the last attempt', async () => {
    const id = await queue('email', await customer('Ada Neri', { email: 'ada@example.test' }), 'ada@example.test');
    smtp.refuseNext(451, 451, 451, 451, 451);
    let now = at(30);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await sendDueMessages(now, [id]);
      const m = await message(id);
      if (attempt < 5) now = m.next_attempt_at;
    }
    const failed = await message(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 5, next_attempt_at: null, failed_at: now });
    expect(failed.error).toMatch(/^Gave up after 5 attempts: 451/);
  });

  it('does not send again a message whose hand-off outcome is unknown after a crash', async () => {
    const before = smtp.received.length;
    const id = await queue('email', await customer('Rita Galli', { email: 'rita@example.test' }), 'rita@example.test');
    // A pass that marked the hand-off and died: its lease ran out.
    await q(
      `update public.outbox_messages set status = 'sending', sending_at = $2, handing_at = $2, provider = 'smtp', attempts = 1,
              lease_owner = 'dead', lease_expires_at = $3 where id = $1`,
      [id, at(30).toISOString(), at(150).toISOString()],
    );
    expect(await sendDueMessages(at(151), [id])).toMatchObject({ sent: 0, failed: 1 });
    const m = await message(id);
    expect(m).toMatchObject({ status: 'failed', handing_at: null });
    expect(m.error).toMatch(/whether it left is unknown/);
    expect(smtp.received).toHaveLength(before);
  });

  it('checks consent again when sending', async () => {
    const customerId = await customer('Sara Conti', { email: 'sara@example.test' });
    const id = await queue('email', customerId, 'sara@example.test');
    await q(`update public.customers set consent_messages = false where id = $1`, [customerId]);
    expect(await sendDueMessages(at(30), [id])).toMatchObject({ cancelled: 1 });
    expect(await message(id)).toMatchObject({ status: 'cancelled', error: 'The customer withdrew consent to messages.' });
  });

  it('holds a message due in the quiet hours until 08:00', async () => {
    const customerId = await customer('Elena Russo', { email: 'elena@example.test' });
    const id = await queue('email', customerId, 'elena@example.test', new Date('2026-11-30T15:00:00Z'));
    // Due at 16:00:30 in Rome, but the pass that takes it runs late, at 22:00.
    expect(await sendDueMessages(new Date('2026-11-30T21:00:00Z'), [id])).toMatchObject({ waiting: 1 });
    expect(await message(id)).toMatchObject({ status: 'queued', attempts: 0, next_attempt_at: new Date('2026-12-01T07:00:00Z') });
  });
});

describe('SMS through Twilio', () => {
  const statusUrl = `${APP_URL}/api/webhooks/twilio/status`;
  const callback = (params: Record<string, string>, signature: string) =>
    twilioStatus(
      new Request('http://127.0.0.1:3315/api/webhooks/twilio/status', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
        body: new URLSearchParams(params),
      }),
    );

  beforeAll(async () => {
    await saveChannelSettings(salon.owner, ws(), { twilio: { accountSid: TWILIO.sid, authToken: TWILIO.token, smsFrom: '+15005550006' } });
  });

  it('sends through the SDK, and a signed status callback moves it to delivered; a forged one gets 403', async () => {
    const id = await queue('sms', await customer('Lucia Neri', { phone: '+39 333 111 2222' }), '+39 333 111 2222');
    twilioApi.failNext(503);
    expect(await sendDueMessages(at(30), [id])).toMatchObject({ retrying: 1 });
    expect((await message(id)).error).toMatch(/Twilio 20500/);
    expect(await sendDueMessages(at(90), [id])).toMatchObject({ sent: 1 });
    expect(twilioApi.requests).toHaveLength(1);
    expect(twilioApi.requests[0]).toEqual({
      accountSid: TWILIO.sid,
      params: { To: '+393331112222', From: '+15005550006', Body: 'Ciao Lucia, a domani!', StatusCallback: statusUrl },
    });
    const sent = await message(id);
    expect(sent).toMatchObject({ status: 'sent', provider: 'twilio', sent_at: at(90) });
    expect(sent.provider_message_id).toMatch(/^SM[0-9a-f]{32}$/);

    const params = { MessageSid: sent.provider_message_id, MessageStatus: 'delivered', AccountSid: TWILIO.sid, To: '+393331112222', From: '+15005550006' };
    const forged = await callback(params, twilio.getExpectedTwilioSignature('not-the-token', statusUrl, params));
    expect(forged.status).toBe(403);
    expect((await callback(params, '')).status).toBe(403);
    // Signed for another URL (the address the request reached, not the public one).
    expect((await callback(params, twilio.getExpectedTwilioSignature(TWILIO.token, 'http://127.0.0.1:3315/api/webhooks/twilio/status', params))).status).toBe(403);
    expect(await message(id)).toMatchObject({ status: 'sent', delivered_at: null });

    const valid = await callback(params, twilio.getExpectedTwilioSignature(TWILIO.token, statusUrl, params));
    expect(valid.status).toBe(204);
    expect(await message(id)).toMatchObject({ status: 'delivered', error: null });
  });

  it('marks a message Twilio could not deliver undeliverable, with the reason', async () => {
    const id = await queue('sms', await customer('Pia Serra', { phone: '+39 333 999 0000' }), '+39 333 999 0000');
    await sendDueMessages(at(30), [id]);
    const sent = await message(id);
    const params = { MessageSid: sent.provider_message_id, MessageStatus: 'undelivered', ErrorCode: '30003', AccountSid: TWILIO.sid };
    expect((await callback(params, twilio.getExpectedTwilioSignature(TWILIO.token, statusUrl, params))).status).toBe(204);
    expect(await message(id)).toMatchObject({ status: 'undeliverable', error: 'Twilio reported the message undelivered (error 30003).' });
  });
});
