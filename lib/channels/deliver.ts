import 'server-only';
import { randomUUID } from 'node:crypto';
import { outOfQuietHours, type Channel } from '@/lib/actions';
import { asService, getDb, type Tx } from '@/lib/db';
import { sendEvent } from '@/lib/events';
import { log } from '@/lib/log';
import { claim, finish, processWorkerId, type Queue } from '@/lib/queue';
import { emailRoute, messageIdFor, sendEmail, type SendFailure } from './email';
import { smtpCredentials, twilioCredentials, type Provider } from './settings';
import { twilioStatusUrl } from './status';
import { sendTwilio } from './twilio';

/**
 * The due-message pass (docs/messages.md): each due message is claimed under the one lease primitive
 * (lib/queue), checked again (kill switch, consent, quiet hours, the daily cap) and handed to its
 * channel's provider. Never twice: a hand-off is marked (`handing_at`, and for email the Message-ID)
 * in its own commit before the provider is called, and its outcome is written with the provider's id
 * in the statement that moves the state. A claim that finds a hand-off still marked knows its holder
 * died mid-send: whether the provider took the message is unknown, so it is failed with that reason
 * for the owner to check and send again, never sent blindly.
 *
 * A transient failure (SMTP 4xx, no connection, Twilio 429 / 5xx) puts the message back in the queue
 * with its reason and a retry time (exponential backoff); it stays `queued`, so undo and the kill
 * switches still stop it. A permanent refusal, or the last attempt's failure, is `failed`.
 */

export const MAX_ATTEMPTS = 5;
const FIRST_RETRY_MS = 60_000;
const LEASE_SECONDS = 120;
const BATCH = 20;
/** A message with no provider to take it is looked at again this often (the sweep's period). */
const NO_PROVIDER_WAIT_MS = 15 * 60_000;

/** 1, 4, 16, 64 minutes after attempts 1–4. */
export const retryDelayMs = (attempts: number) => FIRST_RETRY_MS * 4 ** Math.max(0, attempts - 1);

const outbox: Queue = {
  table: 'public.outbox_messages',
  idType: 'uuid',
  ready: (t, at) => `${t}.status = 'queued' and coalesce(${t}.next_attempt_at, ${t}.send_after) <= ${at.now}`,
  leased: (t) => `${t}.status = 'sending'`,
  scope: (t, at) => `(${at.scope}::uuid[] is null or ${t}.id = any(${at.scope}::uuid[]))`,
  order: (t) => `coalesce(${t}.next_attempt_at, ${t}.send_after), ${t}.id`,
  attempts: {},
  onClaim: (_r, at) => `status = 'sending', sending_at = ${at.now}`,
  returning: `r.id, r.workspace_id, r.customer_id, r.decision_id, r.channel, r.recipient, r.subject, r.body, r.attempts, r.handing_at, r.provider`,
};

interface Claimed {
  id: string;
  workspace_id: string;
  customer_id: string | null;
  decision_id: string | null;
  channel: Channel;
  recipient: string;
  subject: string;
  body: string;
  attempts: number;
  handing_at: Date | null;
  provider: Provider | null;
}

interface Context {
  name: string;
  time_zone: string;
  locale: string;
  paused: boolean;
  consented: boolean;
  /** The one confirmation of a customer's STOP (lib/inbound): owed now, with their consent already gone. */
  stop_confirmation: boolean;
  marketing: boolean;
  daily_cap: number;
  today: number;
  tomorrow: Date;
}

export interface PassResult {
  sent: number;
  failed: number;
  retrying: number;
  waiting: number;
  cancelled: number;
}

/** How one hand-off ends; each becomes one finishing update. */
type Outcome =
  | { kind: 'sent'; provider: Provider; providerMessageId: string }
  | { kind: 'retry'; reason: string; at: Date }
  | { kind: 'failed'; reason: string }
  | { kind: 'cancelled'; reason: string }
  /**
   * Back in the queue untouched by a provider (quiet hours, the cap, no provider): the attempt is not
   * counted. `wake`: a pass is scheduled for `at`; without, the quarter-hourly sweep looks again.
   */
  | { kind: 'wait'; at: Date; reason: string | null; wake: boolean };

/**
 * Hands every due message (or only `messageIds`) to its provider. `now` is the pass's clock, for the
 * claim and every time it writes.
 */
export async function sendDueMessages(now: Date, messageIds?: string[]): Promise<PassResult> {
  const result: PassResult = { sent: 0, failed: 0, retrying: 0, waiting: 0, cancelled: 0 };
  const owner = `outbox:${randomUUID()}`;
  const db = await getDb();
  // Every outcome moves a message out of the claimable set until a later time, so the loop ends.
  for (;;) {
    const batch = await claim<Claimed>(db, outbox, { owner, worker: processWorkerId(), leaseSeconds: LEASE_SECONDS, limit: BATCH, now, scope: messageIds ?? null });
    for (const message of batch) {
      const outcome = await handOff(owner, message, now).catch((error: unknown): Outcome => {
        log('error', 'outbox hand-off failed', { messageId: message.id, error: String(error) });
        return { kind: 'retry', reason: 'The app could not prepare this message.', at: new Date(now.getTime() + retryDelayMs(message.attempts)) };
      });
      await record(owner, message, outcome, now);
      const key = ({ sent: 'sent', retry: 'retrying', failed: 'failed', cancelled: 'cancelled', wait: 'waiting' } as const)[outcome.kind];
      result[key] += 1;
    }
    if (batch.length < BATCH) return result;
  }
}

async function handOff(owner: string, message: Claimed, now: Date): Promise<Outcome> {
  if (message.handing_at) {
    return {
      kind: 'failed',
      reason: 'The app stopped while handing this message on, so whether it left is unknown. It was not sent again: check with the customer and send it again if needed.',
    };
  }
  const ctx = await asService((tx) => context(tx, message, now));
  if (ctx.paused) return { kind: 'cancelled', reason: 'Stopped by a kill switch before it was sent.' };
  if (!ctx.consented && !ctx.stop_confirmation) {
    return { kind: 'cancelled', reason: ctx.marketing ? 'The customer withdrew consent to marketing messages.' : 'The customer withdrew consent to messages.' };
  }
  const quietUntil = await asService((tx) => outOfQuietHours(tx, now, ctx.time_zone));
  if (quietUntil > now && !ctx.stop_confirmation) return { kind: 'wait', at: quietUntil, reason: null, wake: true };
  if (ctx.today >= ctx.daily_cap) {
    const morning = await asService((tx) => outOfQuietHours(tx, ctx.tomorrow, ctx.time_zone));
    return { kind: 'wait', at: morning, reason: `The daily limit of ${ctx.daily_cap} messages was reached; it goes tomorrow.`, wake: true };
  }

  const waitForProvider: Outcome = { kind: 'wait', at: new Date(now.getTime() + NO_PROVIDER_WAIT_MS), reason: null, wake: false };
  if (message.channel === 'email') {
    const route = emailRoute(await smtpCredentials(message.workspace_id), ctx.name);
    if (!route) return waitForProvider;
    const messageId = messageIdFor(message.id, route.from);
    if (!(await markHanding(owner, message.id, 'smtp', messageId, now))) return { kind: 'wait', at: now, reason: null, wake: false };
    const sent = await sendEmail(
      route.server,
      {
        from: route.from,
        to: message.recipient,
        replyTo: route.replyTo,
        subject: message.subject || ctx.name,
        text: message.body,
        messageId,
        // Replying STOP to the business is how a customer stops messages (docs/messages.md).
        unsubscribe: route.replyTo ? `<mailto:${route.replyTo}?subject=STOP>` : null,
      },
      ctx.locale,
    );
    return sent.ok ? { kind: 'sent', provider: 'smtp', providerMessageId: messageId } : failure(sent, message, now);
  }

  const credentials = await twilioCredentials(message.workspace_id);
  const channel = message.channel;
  if (!credentials || !(channel === 'whatsapp' ? credentials.whatsappFrom : credentials.from)) return waitForProvider;
  if (!(await markHanding(owner, message.id, 'twilio', null, now))) return { kind: 'wait', at: now, reason: null, wake: false };
  const sent = await sendTwilio(credentials, {
    channel,
    to: message.recipient,
    body: message.body,
    statusCallback: twilioStatusUrl(),
  });
  return sent.ok ? { kind: 'sent', provider: 'twilio', providerMessageId: sent.sid } : failure(sent, message, now);
}

function failure(f: SendFailure, message: Claimed, now: Date): Outcome {
  if (!f.transient) return { kind: 'failed', reason: f.reason };
  if (message.attempts >= MAX_ATTEMPTS) return { kind: 'failed', reason: `Gave up after ${message.attempts} attempts: ${f.reason}` };
  return { kind: 'retry', reason: f.reason, at: new Date(now.getTime() + retryDelayMs(message.attempts)) };
}

/** Marks the hand-off in a commit of its own, while the lease is still this pass's; false when it is not. */
async function markHanding(owner: string, id: string, provider: Provider, providerMessageId: string | null, now: Date): Promise<boolean> {
  const rows = await asService((tx) =>
    tx.query(
      `update public.outbox_messages set handing_at = $3, provider = $4, provider_message_id = coalesce($5, provider_message_id)
        where id = $1 and lease_owner = $2 and status = 'sending' returning id`,
      [id, owner, now.toISOString(), provider, providerMessageId],
    ),
  );
  return rows.length === 1;
}

async function context(tx: Tx, message: Claimed, now: Date): Promise<Context> {
  const [row] = await tx.query<Context>(
    `select w.name, w.time_zone, w.locale,
            case when d.id is not null then private.action_tier(m.workspace_id, d.planet, d.action_type) = 'paused'
                 else coalesce((select a.paused from public.workspace_autonomy a where a.workspace_id = m.workspace_id), false) end as paused,
            coalesce(d.action_type = 'win_back', false) as marketing,
            exists (select 1 from public.customer_conversations x where x.stop_confirmation_id = m.id) as stop_confirmation,
            case when m.customer_id is null then true
                 when d.action_type = 'win_back' then coalesce(c.consent_marketing, false)
                 else coalesce(c.consent_messages, false) end as consented,
            coalesce(ch.daily_cap, 200) as daily_cap,
            (select count(*)::int from public.outbox_messages o
              where o.workspace_id = m.workspace_id and o.id <> m.id and o.sending_at is not null
                and o.status in ('sending', 'sent', 'delivered', 'failed', 'undeliverable')
                and o.sending_at >= date_trunc('day', $2::timestamptz at time zone w.time_zone) at time zone w.time_zone) as today,
            (date_trunc('day', $2::timestamptz at time zone w.time_zone) + interval '1 day') at time zone w.time_zone as tomorrow
       from public.outbox_messages m
       join public.workspaces w on w.id = m.workspace_id
       left join public.agent_decisions d on d.id = m.decision_id
       left join public.customers c on c.workspace_id = m.workspace_id and c.id = m.customer_id
       left join public.workspace_channels ch on ch.workspace_id = m.workspace_id
      where m.id = $1`,
    [message.id, now.toISOString()],
  );
  return row!;
}

/** Writes the outcome where this pass still holds the lease; a retry or a wait also schedules its own pass. */
async function record(owner: string, message: Claimed, outcome: Outcome, now: Date) {
  const at = now.toISOString();
  const values =
    outcome.kind === 'sent'
      ? { status: 'sent', provider: outcome.provider, pid: outcome.providerMessageId, error: null, next: null, sent_at: at, failed_at: null, cancelled_at: null, count: true }
      : outcome.kind === 'retry'
        ? { status: 'queued', provider: null, pid: null, error: outcome.reason, next: outcome.at.toISOString(), sent_at: null, failed_at: null, cancelled_at: null, count: true }
        : outcome.kind === 'failed'
          ? { status: 'failed', provider: null, pid: null, error: outcome.reason, next: null, sent_at: null, failed_at: at, cancelled_at: null, count: true }
          : outcome.kind === 'cancelled'
            ? { status: 'cancelled', provider: null, pid: null, error: outcome.reason, next: null, sent_at: null, failed_at: null, cancelled_at: at, count: true }
            : { status: 'queued', provider: null, pid: null, error: outcome.reason, next: outcome.at.toISOString(), sent_at: null, failed_at: null, cancelled_at: null, count: false };
  await asService(async (tx) => {
    const done = await finish(tx, outbox, {
      owner,
      rows: [{ id: message.id, ...values }],
      types: { status: 'text', provider: 'text', pid: 'text', error: 'text', next: 'timestamptz', sent_at: 'timestamptz', failed_at: 'timestamptz', cancelled_at: 'timestamptz', count: 'boolean' },
      set: (r) => `status = v.status, provider = coalesce(v.provider, ${r}.provider), provider_message_id = coalesce(v.pid, ${r}.provider_message_id),
        error = v.error, next_attempt_at = v.next, sent_at = v.sent_at, failed_at = v.failed_at, cancelled_at = v.cancelled_at, handing_at = null,
        attempts = case when v.count then ${r}.attempts else ${r}.attempts - 1 end,
        sending_at = case when v.count then ${r}.sending_at end`,
    });
    if (done.length === 1 && values.next && (outcome.kind === 'retry' || (outcome.kind === 'wait' && outcome.wake))) {
      await sendEvent({ name: 'messages/queued', data: { workspaceId: message.workspace_id, messageId: message.id, sendAfter: values.next } }, tx);
    }
  });
}
