import { config } from '@/lib/config';
import { asService, type SessionUser } from '@/lib/db';
import { constantTimeEqual, newToken, sha256 } from './crypto';

/**
 * The dev mailbox: the outbox shown where no mail server is connected (`config().devMailbox`,
 * embedded mode by default). Reset and invitation links are in it, so it is not open to whoever can
 * reach the install: a signed-in person reads the mail sent to their own address; the whole outbox
 * (a reset for someone who cannot sign in, an invitation to someone without an account) needs the
 * mailbox key, printed in the terminal at start next to the demo login.
 */

/** The HttpOnly cookie the browser keeps the mailbox key in, once `/dev/mailbox/unlock?key=` took it. */
export const MAILBOX_COOKIE = 'mv_mailbox';
const KEY_SETTING = 'dev_mailbox_key';

export interface OutboxEmail {
  id: string;
  toEmail: string;
  kind: string;
  subject: string;
  body: string;
  link: string | null;
  createdAt: Date;
}

/** DEV_MAILBOX_KEY when set; otherwise one generated on first use and kept in the database, so it survives restarts. */
export async function mailboxKey(): Promise<string> {
  const configured = config().DEV_MAILBOX_KEY;
  if (configured) return configured;
  return asService(async (tx) => {
    await tx.query(`insert into private.instance_settings (key, value) values ($1, $2) on conflict (key) do nothing`, [KEY_SETTING, newToken(24)]);
    const [row] = await tx.query<{ value: string }>(`select value from private.instance_settings where key = $1`, [KEY_SETTING]);
    return row!.value;
  });
}

/** Both sides hashed: equal lengths, so the comparison's time says nothing about the key. */
export async function isMailboxKey(candidate: string | null | undefined): Promise<boolean> {
  return Boolean(candidate) && constantTimeEqual(sha256(candidate!), sha256(await mailboxKey()));
}

/** What one reader of the mailbox sees: `all` with the key, `own` (mail to their address) when signed in. */
export interface Mailbox {
  scope: 'all' | 'own';
  emails: OutboxEmail[];
}

/**
 * The mail this reader may see, newest first (at most 100), narrowed to `filter.email` when given;
 * null (nothing, not even a count) for anyone without the key or a session, and where the mailbox is off.
 */
export async function readMailbox(reader: { user?: SessionUser | null; key?: string | null }, filter: { email?: string } = {}): Promise<Mailbox | null> {
  if (!config().devMailbox) return null;
  const scope = (await isMailboxKey(reader.key)) ? 'all' : reader.user ? 'own' : null;
  if (!scope) return null;
  const rows = await asService((tx) =>
    tx.query<{ id: string; to_email: string; kind: string; subject: string; body: string; link: string | null; created_at: Date }>(
      `select id, to_email, kind, subject, body, link, created_at from private.email_outbox
        where ($1::text is null or lower(to_email) = lower($1)) and ($2::text is null or lower(to_email) = lower($2))
        order by created_at desc limit 100`,
      [scope === 'own' ? reader.user!.email : null, filter.email ?? null],
    ),
  );
  const emails = rows.map((r) => ({ id: r.id, toEmail: r.to_email, kind: r.kind, subject: r.subject, body: r.body, link: r.link, createdAt: r.created_at }));
  return { scope, emails };
}
