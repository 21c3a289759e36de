import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { config } from '@/lib/config';
import { asService, type Tx } from '@/lib/db';
import { landInbound, type Landed } from './land';

/** A raw message larger than this is refused (413): replies are text, not attachments. */
export const EMAIL_MAX_BYTES = 5 * 1024 * 1024;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const token = (bytes: number) => randomBytes(bytes).toString('hex');

export const emailInboundPath = (secret: string) => `/api/webhooks/email/${secret}`;

async function addressToken(tx: Tx, workspaceId: string): Promise<string> {
  await tx.query(`insert into private.inbound_email (workspace_id, address_token) values ($1, $2) on conflict (workspace_id) do nothing`, [workspaceId, token(8)]);
  const [row] = await tx.query<{ address_token: string }>(`select address_token from private.inbound_email where workspace_id = $1`, [workspaceId]);
  return row!.address_token;
}

/**
 * The workspace's reply-to address, `reply+<token>@<INBOUND_EMAIL_DOMAIN>`, what its emails to customers
 * carry so that an answer comes back here; null when the install has no inbound domain. The token only
 * routes mail: it opens nothing.
 */
export async function replyAddress(workspaceId: string): Promise<string | null> {
  const domain = config().INBOUND_EMAIL_DOMAIN;
  if (!domain) return null;
  return `reply+${await asService((tx) => addressToken(tx, workspaceId))}@${domain.toLowerCase()}`;
}

/**
 * A new secret URL for the workspace's mail provider to post raw messages to; the previous one stops
 * working. Only its hash is kept, so it is shown once. Trusted code: the caller checks the person's role.
 */
export async function issueEmailInboundUrl(workspaceId: string): Promise<{ url: string; address: string | null }> {
  const secret = `${token(8)}${token(16)}`;
  await asService(async (tx) => {
    await addressToken(tx, workspaceId);
    await tx.query(`update private.inbound_email set secret_hash = $2 where workspace_id = $1`, [workspaceId, sha256(secret)]);
  });
  return { url: new URL(emailInboundPath(secret), config().APP_URL).href, address: await replyAddress(workspaceId) };
}

/** The part of a reply the customer wrote: quoted history ("> …", "On … wrote:", "Il … ha scritto:") is cut. */
export function replyText(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const kept: string[] = [];
  for (const line of lines) {
    const t = line.trim();
    if (t.startsWith('>')) break;
    if (/^(on\b.*\bwrote:|il\b.*\bha scritto:|-----\s*original message\s*-----|-----\s*messaggio originale\s*-----)$/i.test(t)) break;
    kept.push(line);
  }
  return kept.join('\n').trim();
}

export type EmailInbound = { workspace: false } | { workspace: true; landed: Landed | null };

/**
 * A raw RFC 822 message posted to a workspace's secret URL (`secret` from the path), parsed with
 * mailparser: the sender's address finds the customer, the text without its quoted history lands in their
 * conversation. An unknown secret is `{ workspace: false }` (the route answers 404, as for anything else
 * that does not exist); automatic mail (Auto-Submitted, out-of-office) and mail without a sender are
 * accepted and dropped, so two machines never answer each other.
 */
export async function receiveEmail(secret: string, raw: Buffer, now = new Date()): Promise<EmailInbound> {
  if (!/^[0-9a-f]{48}$/.test(secret)) return { workspace: false };
  const [row] = await asService((tx) => tx.query<{ workspace_id: string }>(`select workspace_id from private.inbound_email where secret_hash = $1`, [sha256(secret)]));
  if (!row) return { workspace: false };
  const mail = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true });
  const from = mail.from?.value[0]?.address?.trim().toLowerCase();
  const auto = String(mail.headers.get('auto-submitted') ?? 'no').toLowerCase();
  if (!from || !/^[^@\s]+@[^@\s]+$/.test(from) || auto !== 'no' || mail.headers.has('x-autoreply')) return { workspace: true, landed: null };
  const body = replyText(mail.text ?? '');
  const landed = await landInbound({
    workspaceId: row.workspace_id,
    channel: 'email',
    from: { email: from },
    body,
    subject: mail.subject,
    externalId: `email:${mail.messageId ?? sha256(raw.toString('latin1'))}`,
    now,
  });
  return { workspace: true, landed };
}
