import 'server-only';
import nodemailer from 'nodemailer';
import { config } from '@/lib/config';
import type { SmtpCredentials } from './settings';

/**
 * Email over SMTP through nodemailer: a workspace's own server (Settings → Messages) or the install's
 * (SMTP_URL / SMTP_HOST). Every message has a plain and an HTML part, its own Message-ID (known before
 * the hand-off, so it is stored first) and the workspace's reply-to.
 */

/** A failure's verdict: a transient one is tried again later, a permanent one is not. */
export interface SendFailure {
  transient: boolean;
  reason: string;
}

export interface SmtpServer {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  password: string | null;
}

/** The install's SMTP server and sender, or null when none is set (lib/config). */
export function installSmtp(): (SmtpServer & { from: string }) | null {
  const cfg = config();
  if (cfg.SMTP_URL) {
    const url = new URL(cfg.SMTP_URL);
    const secure = url.protocol === 'smtps:';
    return {
      host: url.hostname,
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      user: url.username ? decodeURIComponent(url.username) : null,
      password: url.password ? decodeURIComponent(url.password) : null,
      from: cfg.SMTP_FROM!,
    };
  }
  if (cfg.SMTP_HOST) {
    return { host: cfg.SMTP_HOST, port: cfg.SMTP_PORT, secure: cfg.SMTP_PORT === 465, user: cfg.SMTP_USER ?? null, password: cfg.SMTP_PASSWORD ?? null, from: cfg.SMTP_FROM! };
  }
  return null;
}

function transport(server: SmtpServer) {
  return nodemailer.createTransport({
    host: server.host,
    port: server.port,
    secure: server.secure,
    auth: server.user ? { user: server.user, pass: server.password ?? '' } : undefined,
    // A hand-off holds a lease: a server that hangs fails it (as transient) well within it.
    connectionTimeout: 20_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
}

export interface Email {
  from: string;
  to: string;
  replyTo?: string | null;
  subject: string;
  text: string;
  messageId: string;
  /** `List-Unsubscribe` (RFC 2369): how a customer stops these messages. */
  unsubscribe?: string | null;
  /** A link the mail is about (a reset, an invitation): a line of the plain part, a link of the HTML part. */
  link?: EmailLink | null;
}

export interface EmailLink {
  url: string;
  label: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`);

/** The plain part: the text, then the link's label and address on lines of their own. */
function plainOf(text: string, link?: EmailLink | null): string {
  return link ? `${text}\n\n${link.label}:\n${link.url}` : text;
}

/** The HTML part: the same words, paragraphs kept, nothing the plain part does not say. */
export function htmlOf(text: string, lang: string, link?: EmailLink | null): string {
  const paragraphs = text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .concat(link ? [`<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`] : [])
    .join('\n');
  return `<!doctype html>\n<html lang="${lang}"><head><meta charset="utf-8"></head>\n<body style="font-family:system-ui,sans-serif;line-height:1.5">\n${paragraphs}\n</body></html>`;
}

/** A Message-ID of our own for an outbox message: the same on every retry, in the sender's domain. */
export function messageIdFor(outboxId: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'multiverbe.invalid';
  return `<${outboxId}@${domain}>`;
}

export async function sendEmail(server: SmtpServer, email: Email, lang: string): Promise<{ ok: true; messageId: string } | ({ ok: false } & SendFailure)> {
  const mailer = transport(server);
  try {
    const info = await mailer.sendMail({
      from: email.from,
      to: email.to,
      replyTo: email.replyTo ?? undefined,
      subject: email.subject,
      text: plainOf(email.text, email.link),
      html: htmlOf(email.text, lang, email.link),
      messageId: email.messageId,
      headers: email.unsubscribe ? { 'List-Unsubscribe': email.unsubscribe } : undefined,
    });
    return { ok: true, messageId: info.messageId };
  } catch (error) {
    return { ok: false, ...smtpFailure(error) };
  } finally {
    mailer.close();
  }
}

/** SMTP 4xx and a connection that failed are worth another try; 5xx and a refused login are not. */
export function smtpFailure(error: unknown): SendFailure {
  const e = error as { responseCode?: number; response?: string; code?: string; message?: string };
  const reason = (e.response || e.message || String(error)).slice(0, 400);
  if (typeof e.responseCode === 'number') return { transient: e.responseCode >= 400 && e.responseCode < 500, reason };
  const transientCodes = ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE'];
  return { transient: e.code !== 'EAUTH' && (!e.code || transientCodes.includes(e.code)), reason };
}

/** The workspace's own server, else the install's, with the sender and reply-to to use; null: no email connected. */
export function emailRoute(own: SmtpCredentials | null, workspaceName: string): { server: SmtpServer; from: string; replyTo: string | null } | null {
  if (own) return { server: own, from: own.from, replyTo: own.replyTo };
  const install = installSmtp();
  if (!install) return null;
  // The install's address under the business's name: customers see who writes to them.
  const address = /<([^>]+)>/.exec(install.from)?.[1] ?? install.from;
  return { server: install, from: `"${workspaceName.replace(/["\\]/g, '')}" <${address}>`, replyTo: null };
}
