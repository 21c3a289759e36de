import 'server-only';
import { randomUUID } from 'node:crypto';
import { asService, getDb } from '@/lib/db';
import { sendEvent } from '@/lib/events';
import { log } from '@/lib/log';
import { claim, finish, processWorkerId, type Queue } from '@/lib/queue';
import { MAX_ATTEMPTS, retryDelayMs } from './deliver';
import { installSmtp, messageIdFor, sendEmail } from './email';

/**
 * Account mail (invitations, password resets, quota warnings; lib/auth queues them in
 * `private.email_outbox`) handed to the install's SMTP server under the one lease primitive (lib/queue),
 * by the rules of the customer outbox (deliver.ts, docs/messages.md): the Message-ID and the hand-off are
 * stored in a commit of their own before the server is called, the outcome is written with the state, a
 * hand-off found still marked is failed as unknown and never sent again, transient failures come back
 * after the same backoff and give up after the same number of attempts.
 */

const LEASE_SECONDS = 120;
const BATCH = 20;

const accountMail: Queue = {
  table: 'private.email_outbox',
  idType: 'uuid',
  ready: (t, at) => `${t}.status = 'queued' and coalesce(${t}.next_attempt_at, ${t}.created_at) <= ${at.now}`,
  leased: (t) => `${t}.status = 'sending'`,
  scope: (t, at) => `(${at.scope}::uuid[] is null or ${t}.id = any(${at.scope}::uuid[]))`,
  order: (t) => `coalesce(${t}.next_attempt_at, ${t}.created_at), ${t}.id`,
  attempts: {},
  onClaim: (_r, at) => `status = 'sending', sending_at = ${at.now}`,
  returning: `r.id, r.to_email, r.subject, r.body, r.link, r.link_label, r.locale, r.attempts, r.handing_at`,
};

interface Claimed {
  id: string;
  to_email: string;
  subject: string;
  body: string;
  link: string | null;
  link_label: string | null;
  locale: string;
  attempts: number;
  handing_at: Date | null;
}

type Outcome =
  | { kind: 'sent'; messageId: string }
  | { kind: 'retry'; reason: string; at: Date }
  | { kind: 'failed'; reason: string }
  /** The lease ran out before the hand-off was marked: whoever holds it now sends the mail, this pass writes nothing. */
  | { kind: 'lost' };

export interface AccountMailPass {
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * Hands every due account mail (or only `mailIds`) to the install's SMTP server. `now` is the pass's
 * clock, for the claim and every time it writes.
 */
export async function sendAccountMail(now: Date, mailIds?: string[]): Promise<AccountMailPass> {
  const result: AccountMailPass = { sent: 0, retrying: 0, failed: 0 };
  const owner = `account-mail:${randomUUID()}`;
  const db = await getDb();
  // Every outcome moves a mail out of the claimable set (sent, failed, or a retry time after `now`), so the loop ends.
  for (;;) {
    const batch = await claim<Claimed>(db, accountMail, { owner, worker: processWorkerId(), leaseSeconds: LEASE_SECONDS, limit: BATCH, now, scope: mailIds ?? null });
    for (const mail of batch) {
      const outcome = await handOff(owner, mail, now).catch((error: unknown): Outcome => {
        log('error', 'account mail hand-off failed', { mailId: mail.id, error: String(error) });
        return retryOrFail(mail, now, 'The app could not prepare this mail.');
      });
      if (outcome.kind === 'lost') continue;
      await record(owner, mail, outcome, now);
      result[outcome.kind === 'retry' ? 'retrying' : outcome.kind] += 1;
    }
    if (batch.length < BATCH) return result;
  }
}

async function handOff(owner: string, mail: Claimed, now: Date): Promise<Outcome> {
  if (mail.handing_at) {
    return { kind: 'failed', reason: 'The app stopped while handing this mail to the SMTP server, so whether it left is unknown. It was not sent again.' };
  }
  const server = installSmtp();
  // Queued while the install had SMTP, which is gone since (a restart without it): the dev mailbox, if on, still shows it.
  if (!server) return { kind: 'failed', reason: 'The install has no SMTP server any more (SMTP_URL or SMTP_HOST).' };
  const messageId = messageIdFor(mail.id, server.from);
  const marked = await asService((tx) =>
    tx.query(
      `update private.email_outbox set handing_at = $3, message_id = $4 where id = $1 and lease_owner = $2 and status = 'sending' returning id`,
      [mail.id, owner, now.toISOString(), messageId],
    ),
  );
  if (marked.length !== 1) return { kind: 'lost' };
  const sent = await sendEmail(
    server,
    {
      from: server.from,
      to: mail.to_email,
      subject: mail.subject,
      text: mail.body,
      messageId,
      link: mail.link ? { url: mail.link, label: mail.link_label ?? mail.link } : null,
    },
    mail.locale,
  );
  if (sent.ok) return { kind: 'sent', messageId };
  return sent.transient ? retryOrFail(mail, now, sent.reason) : { kind: 'failed', reason: sent.reason };
}

function retryOrFail(mail: Claimed, now: Date, reason: string): Outcome {
  if (mail.attempts >= MAX_ATTEMPTS) return { kind: 'failed', reason: `Gave up after ${mail.attempts} attempts: ${reason}` };
  return { kind: 'retry', reason, at: new Date(now.getTime() + retryDelayMs(mail.attempts)) };
}

/** Writes the outcome where this pass still holds the lease; a retry schedules its own pass. */
async function record(owner: string, mail: Claimed, outcome: Exclude<Outcome, { kind: 'lost' }>, now: Date) {
  const at = now.toISOString();
  const row =
    outcome.kind === 'sent'
      ? { id: mail.id, status: 'sent', message_id: outcome.messageId, error: null, next: null, sent_at: at, failed_at: null }
      : outcome.kind === 'retry'
        ? { id: mail.id, status: 'queued', message_id: null, error: outcome.reason.slice(0, 1000), next: outcome.at.toISOString(), sent_at: null, failed_at: null }
        : { id: mail.id, status: 'failed', message_id: null, error: outcome.reason.slice(0, 1000), next: null, sent_at: null, failed_at: at };
  await asService(async (tx) => {
    const done = await finish(tx, accountMail, {
      owner,
      rows: [row],
      types: { status: 'text', message_id: 'text', error: 'text', next: 'timestamptz', sent_at: 'timestamptz', failed_at: 'timestamptz' },
      set: (r) => `status = v.status, message_id = coalesce(v.message_id, ${r}.message_id), error = v.error, next_attempt_at = v.next,
        sent_at = v.sent_at, failed_at = v.failed_at, handing_at = null`,
    });
    if (done.length === 1 && outcome.kind === 'retry') {
      await sendEvent({ name: 'account-mail/queued', data: { mailId: mail.id, sendAfter: outcome.at.toISOString() } }, tx);
    }
  });
}
