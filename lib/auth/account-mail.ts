import { config } from '@/lib/config';
import type { Tx } from '@/lib/db';
import { sendEvent } from '@/lib/events';
import { createTranslator, DEFAULT_LOCALE, isLocale, type Locale, type Translate } from '@/lib/i18n';
import { en } from '@/lib/i18n/messages/en';
import { it } from '@/lib/i18n/messages/it';

/**
 * Mail to accounts (password resets, invitations, quota warnings), written in the recipient's language
 * into `private.email_outbox`. With the install's SMTP set it is queued there and sent through it
 * (lib/channels `sendAccountMail`, docs/messages.md); without, it is kept for the dev mailbox, as before.
 */

const COMMIT_MARGIN_MS = 10_000;

const translators: Record<Locale, Translate> = { en: createTranslator(en, 'en'), it: createTranslator(it, 'it') };

/** The language of a mail: the first of `preferences` the interface speaks (the person's, then the workspace's), else English. */
export function mailLanguage(...preferences: Array<string | null | undefined>): { locale: Locale; t: Translate } {
  const locale = preferences.find(isLocale) ?? DEFAULT_LOCALE;
  return { locale, t: translators[locale] };
}

/**
 * `kept`: for the dev mailbox only, never sent (no install SMTP when it was written); then the outbox's
 * `queued → sending → sent | failed`, a retry back in `queued` with its reason.
 */
export const ACCOUNT_MAIL_STATUSES = ['kept', 'queued', 'sending', 'sent', 'failed'] as const;
export type AccountMailStatus = (typeof ACCOUNT_MAIL_STATUSES)[number];

export type AccountMailKind = 'password_reset' | 'invitation' | 'quota_warning';

export interface OutgoingEmail {
  to: string;
  kind: AccountMailKind;
  locale: Locale;
  subject: string;
  body: string;
  link?: { url: string; label: string };
}

/** Writes the mail in `tx`; with the install's SMTP, its sending is scheduled in the same transaction. */
export async function queueEmail(tx: Tx, email: OutgoingEmail): Promise<void> {
  const send = config().smtpConfigured;
  const status: AccountMailStatus = send ? 'queued' : 'kept';
  const [row] = await tx.query<{ id: string; created_at: Date }>(
    `insert into private.email_outbox (to_email, kind, locale, subject, body, link, link_label, status)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning id, created_at`,
    [email.to, email.kind, email.locale, email.subject, email.body, email.link?.url ?? null, email.link?.label ?? null, status],
  );
  if (!send) return;
  // Inngest Cloud gets the event before `tx` commits: its run waits a moment rather than find no mail and
  // leave it to the quarter-hourly sweep. The local executor's event commits with the mail.
  const sendAfter = new Date(row!.created_at.getTime() + (config().inngestCloud ? COMMIT_MARGIN_MS : 0));
  await sendEvent({ name: 'account-mail/queued', data: { mailId: row!.id, sendAfter: sendAfter.toISOString() } }, tx);
}
