import { randomBytes } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { deliverAccountMail } from '@/inngest/functions/deliver-account-mail';
import { RUNTIMES, startRuntime, type TestRuntime } from '@/inngest/testing';
import { readMailbox, requestPasswordReset, signUp } from '@/lib/auth';
import { config, resetConfigForTests } from '@/lib/config';
import { asService } from '@/lib/db';
import { createInvitation, createWorkspace } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { sendAccountMail } from '.';
import { startSmtpStandIn, type SmtpStandIn } from './testing';

setupTestDatabase();

/**
 * Account mail (password resets, invitations) through the install's SMTP: a real SMTP server on loopback
 * (smtp-server, parsed with mailparser) behind SMTP_URL, the mail queued by the app's own calls and sent by
 * deliver-account-mail on both runtimes, or by the pass with its clock passed in.
 */
const APP_URL = 'https://app.multiverbe.example.test';
const FROM = 'Multiverbe <no-reply@multiverbe.example.test>';
const q = <T = Record<string, any>>(sql: string, params: unknown[] = []) => asService((tx) => tx.query<T>(sql, params));
const mailTo = (email: string) => q(`select * from private.email_outbox where to_email = $1 order by created_at desc`, [email]).then((rows) => rows[0]!);
const unique = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.test`;

async function person(name: string, locale?: 'en' | 'it') {
  const { user } = await signUp({ email: unique(name), password: 'correct horse battery', locale });
  return user;
}

let smtp: SmtpStandIn;
const receivedBy = (email: string) => smtp.received.filter((m) => (m.to && !Array.isArray(m.to) ? m.to.value : []).some((a) => a.address === email));

function useInstallSmtp() {
  process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`;
  process.env.SMTP_FROM = FROM;
  resetConfigForTests();
}

function noInstallSmtp() {
  delete process.env.SMTP_URL;
  delete process.env.SMTP_FROM;
  resetConfigForTests();
}

beforeAll(async () => {
  process.env.APP_URL = APP_URL;
  smtp = await startSmtpStandIn();
  useInstallSmtp();
});

afterAll(async () => {
  await smtp.close();
  noInstallSmtp();
});

/** The parts every account mail has: the install's sender, our Message-ID, plain and HTML in the recipient's language. */
function expectWellFormed(mail: ParsedMail, row: Record<string, any>, lang: string) {
  expect(mail.from?.value).toEqual([{ address: 'no-reply@multiverbe.example.test', name: 'Multiverbe' }]);
  expect(mail.to).toMatchObject({ value: [{ address: row.to_email }] });
  expect(mail.subject).toBe(row.subject);
  expect(mail.messageId).toBe(row.message_id);
  expect(mail.messageId).toBe(`<${row.id}@multiverbe.example.test>`);
  expect(mail.date).toBeInstanceOf(Date);
  expect(mail.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
  expect(mail.text?.trim()).toBe(`${row.body}\n\n${row.link_label}:\n${row.link}`);
  expect(mail.html).toContain(`<html lang="${lang}">`);
  expect(mail.html).toContain(`<a href="${row.link}">${row.link_label}</a>`);
}

describe.each(RUNTIMES)('with the install’s SMTP, on the %s', (runtimeName) => {
  let runtime: TestRuntime;
  const at = (time: Date) => vi.setSystemTime(time);
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // A minute ahead of the database's clock (Postgres keeps the real one), so what the app writes is due by it.
    at(new Date(Date.now() + 60_000));
    runtime = await startRuntime(runtimeName, { functions: [deliverAccountMail] });
  });
  afterAll(async () => {
    await runtime.stop();
    vi.useRealTimers();
    useInstallSmtp();
  });

  /** Runs what is due, then again 15 s later: on Inngest a mail's run waits a moment for its transaction to commit. */
  async function deliver() {
    await runtime.runUntilIdle();
    at(new Date(Date.now() + 15_000));
    await runtime.runUntilIdle();
  }

  it('sends a password reset in the person’s language, with its link, and the dev mailbox is off', async () => {
    const user = await person('reset', 'it');
    await requestPasswordReset(user.email);
    expect(await mailTo(user.email)).toMatchObject({ status: 'queued', kind: 'password_reset', locale: 'it' });
    await deliver();

    const row = await mailTo(user.email);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, handing_at: null, error: null, sent_at: expect.any(Date) });
    expect(row.subject).toBe('Reimposta la password di Multiverbe');
    expect(row.link).toMatch(new RegExp(`^${APP_URL}/reset-password/confirm\\?token=[A-Za-z0-9_-]+$`));
    const [mail, ...more] = receivedBy(user.email);
    expect(more).toEqual([]);
    expectWellFormed(mail!, row, 'it');
    expect(mail!.text).toContain('Scegli una nuova password');

    expect(config().devMailbox).toBe(false);
    expect(await readMailbox({ user })).toBeNull();
  });

  it('sends an invitation to someone without an account in the workspace’s language', async () => {
    const owner = await person('owner', 'it');
    const workspace = await createWorkspace(owner, { name: 'Studio Aurora', timeZone: 'Europe/Rome', locale: 'en' });
    const invitee = unique('invitee');
    const { link } = await createInvitation(owner, workspace.id, { email: invitee, role: 'admin' });
    await deliver();

    const row = await mailTo(invitee);
    expect(row).toMatchObject({ status: 'sent', kind: 'invitation', locale: 'en', link, link_label: 'Accept the invitation' });
    expect(row.subject).toBe('You\'re invited to Studio Aurora on Multiverbe');
    expect(row.body).toBe(`${owner.email} invited you to join Studio Aurora as an admin. The link works for 7 days.`);
    const mails = receivedBy(invitee);
    expect(mails).toHaveLength(1);
    expectWellFormed(mails[0]!, row, 'en');
  });

  it('keeps a refused mail queued with the reason, and sends it once after the backoff', async () => {
    const user = await person('refused');
    smtp.refuseNext(451);
    await requestPasswordReset(user.email);
    await deliver();

    const refused = await mailTo(user.email);
    expect(refused).toMatchObject({ status: 'queued', attempts: 1, sent_at: null, next_attempt_at: new Date(refused.sending_at.getTime() + 60_000) });
    expect(refused.error).toMatch(/451/);
    expect(receivedBy(user.email)).toHaveLength(0);

    at(refused.next_attempt_at);
    await runtime.runUntilIdle();
    const sent = await mailTo(user.email);
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, error: null, next_attempt_at: null, message_id: refused.message_id });
    expect(receivedBy(user.email)).toHaveLength(1);

    // The quarter-hourly sweep later on: a sent mail is never sent again.
    at(new Date(Date.now() + 3_600_000));
    await runtime.runUntilIdle();
    expect(receivedBy(user.email)).toHaveLength(1);
  });
});

describe('the pass, with its clock', () => {
  const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

  it('fails a mail the server refuses for good, with its reason, and does not try again', async () => {
    const user = await person('rejected');
    smtp.refuseNext(550);
    await requestPasswordReset(user.email);
    const now = later(1);
    const { id } = await mailTo(user.email);
    expect(await sendAccountMail(now, [id])).toEqual({ sent: 0, retrying: 0, failed: 1 });
    const failed = await mailTo(user.email);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, failed_at: now, next_attempt_at: null });
    expect(failed.error).toMatch(/^550/);
    expect(await sendAccountMail(later(7200), [id])).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(receivedBy(user.email)).toHaveLength(0);
  });

  it('gives up after the last attempt, keeping the reason', async () => {
    const user = await person('flaky');
    smtp.refuseNext(451, 451, 451, 451, 451);
    await requestPasswordReset(user.email);
    const { id } = await mailTo(user.email);
    let now = later(1);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await sendAccountMail(now, [id]);
      const row = await mailTo(user.email);
      if (attempt < 5) {
        expect(row).toMatchObject({ status: 'queued', attempts: attempt });
        now = row.next_attempt_at;
      }
    }
    const failed = await mailTo(user.email);
    expect(failed).toMatchObject({ status: 'failed', attempts: 5, failed_at: now });
    expect(failed.error).toMatch(/^Gave up after 5 attempts: 451/);
    expect(receivedBy(user.email)).toHaveLength(0);
  });

  it('does not send again a mail whose hand-off outcome is unknown after a crash', async () => {
    const user = await person('crash');
    await requestPasswordReset(user.email);
    const { id } = await mailTo(user.email);
    // A pass that marked the hand-off and died: its lease ran out.
    await q(
      `update private.email_outbox set status = 'sending', sending_at = $2, handing_at = $2, message_id = '<x@multiverbe.example.test>', attempts = 1,
              lease_owner = 'dead', lease_expires_at = $3 where id = $1`,
      [id, later(1).toISOString(), later(121).toISOString()],
    );
    expect(await sendAccountMail(later(122), [id])).toEqual({ sent: 0, retrying: 0, failed: 1 });
    const row = await mailTo(user.email);
    expect(row).toMatchObject({ status: 'failed', handing_at: null });
    expect(row.error).toMatch(/whether it left is unknown/);
    expect(receivedBy(user.email)).toHaveLength(0);
  });
});

describe('without the install’s SMTP', () => {
  beforeAll(noInstallSmtp);
  afterEach(() => {
    delete process.env.DEV_MAILBOX;
    resetConfigForTests();
  });
  afterAll(useInstallSmtp);

  it('keeps account mail in the dev mailbox, as before, and sends nothing', async () => {
    expect(config().devMailbox).toBe(true);
    const user = await person('nosmtp');
    await requestPasswordReset(user.email);
    const row = await mailTo(user.email);
    expect(row).toMatchObject({ status: 'kept', kind: 'password_reset', attempts: 0 });
    expect(await sendAccountMail(new Date(Date.now() + 3_600_000), [row.id])).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(receivedBy(user.email)).toHaveLength(0);
    const mailbox = await readMailbox({ user });
    expect(mailbox?.emails).toEqual([expect.objectContaining({ toEmail: user.email, kind: 'password_reset', link: row.link })]);
  });

  it('leaves the mail it kept unsent when SMTP is set later', async () => {
    const user = await person('before');
    await requestPasswordReset(user.email);
    useInstallSmtp();
    await sendAccountMail(new Date(Date.now() + 3_600_000));
    expect(await mailTo(user.email)).toMatchObject({ status: 'kept' });
    expect(receivedBy(user.email)).toHaveLength(0);
  });
});

describe('the dev mailbox setting', () => {
  afterEach(useInstallSmtp);

  it('is off by default with SMTP, and DEV_MAILBOX=1 still turns it on', async () => {
    expect(config().devMailbox).toBe(false);
    process.env.DEV_MAILBOX = '1';
    resetConfigForTests();
    expect(config().devMailbox).toBe(true);
    delete process.env.DEV_MAILBOX;
  });
});
