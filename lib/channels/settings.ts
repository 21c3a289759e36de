import 'server-only';
import { z } from 'zod';
import { invalidField, isUuid, managersOnly, notFound, rethrowAsApiError } from '@/lib/api';
import { config } from '@/lib/config';
import { asService, withUser, type SessionUser, type Tx } from '@/lib/db';
import { openSecret, requireKeyRing, sealSecret, SecretsUnavailableError, type SealedColumn } from '@/lib/secrets';

/** Who hands a message on: SMTP for email, Twilio for SMS and WhatsApp (the outbox's `provider`). */
export const PROVIDERS = ['smtp', 'twilio'] as const;
export type Provider = (typeof PROVIDERS)[number];

export const DEFAULT_DAILY_CAP = 200;

/** Where each sealed value is bound (lib/secrets `context`): a value copied to another workspace does not open. */
export const smtpPasswordContext = (workspaceId: string) => `smtp_password:${workspaceId}`;
export const twilioTokenContext = (workspaceId: string) => `twilio_auth_token:${workspaceId}`;

/** The columns scripts/rotate-secrets.ts re-seals. */
export const CHANNEL_SEALED_COLUMNS: SealedColumn[] = [
  { table: 'public.workspace_channels', key: 'workspace_id', column: 'smtp_password_sealed', context: smtpPasswordContext },
  { table: 'public.workspace_channels', key: 'workspace_id', column: 'twilio_auth_token_sealed', context: twilioTokenContext },
];

/** A workspace's channels as anyone in it may see them: never a password or token, only whether one is set. */
export interface ChannelSettings {
  email: { host: string; port: number; secure: boolean; user: string | null; from: string; replyTo: string | null; passwordSet: boolean } | null;
  twilio: { accountSid: string; smsFrom: string | null; whatsappFrom: string | null } | null;
  dailyCap: number;
}

interface Row {
  smtp_host: string | null;
  smtp_port: number | null;
  smtp_secure: boolean;
  smtp_user: string | null;
  smtp_from: string | null;
  smtp_reply_to: string | null;
  smtp_password_set: boolean;
  twilio_account_sid: string | null;
  twilio_sms_from: string | null;
  twilio_whatsapp_from: string | null;
  daily_cap: number;
}

const SETTINGS_COLUMNS = `smtp_host, smtp_port, smtp_secure, smtp_user, smtp_from, smtp_reply_to, smtp_password_set,
  twilio_account_sid, twilio_sms_from, twilio_whatsapp_from, daily_cap`;

function view(row: Row | undefined): ChannelSettings {
  if (!row) return { email: null, twilio: null, dailyCap: DEFAULT_DAILY_CAP };
  return {
    email: row.smtp_host
      ? { host: row.smtp_host, port: row.smtp_port ?? (row.smtp_secure ? 465 : 587), secure: row.smtp_secure, user: row.smtp_user, from: row.smtp_from!, replyTo: row.smtp_reply_to, passwordSet: row.smtp_password_set }
      : null,
    twilio: row.twilio_account_sid ? { accountSid: row.twilio_account_sid, smsFrom: row.twilio_sms_from, whatsappFrom: row.twilio_whatsapp_from } : null,
    dailyCap: row.daily_cap,
  };
}

/** The workspace's channel settings, in the caller's transaction (a member's under RLS, or the service's). */
export async function channelSettings(tx: Tx, workspaceId: string): Promise<ChannelSettings> {
  const [row] = await tx.query<Row>(`select ${SETTINGS_COLUMNS} from public.workspace_channels where workspace_id = $1`, [workspaceId]);
  return view(row);
}

export interface TwilioCredentials {
  accountSid: string;
  authToken: string;
  /** The SMS sender (a number or a messaging service's sender); null: SMS not connected. */
  from: string | null;
  /** The WhatsApp sender, as `+39…` (sent as `whatsapp:+39…`); null: WhatsApp not connected. */
  whatsappFrom: string | null;
  /** Twilio's API origin when not the real one (TWILIO_API_BASE_URL: the tests' stand-in). */
  baseUrl?: string;
}

/** The workspace's Twilio account with its auth token opened, or null when none is connected. Trusted server code only. */
export async function twilioCredentials(workspaceId: string): Promise<TwilioCredentials | null> {
  const [row] = await asService((tx) =>
    tx.query<{ twilio_account_sid: string | null; twilio_auth_token_sealed: string | null; twilio_sms_from: string | null; twilio_whatsapp_from: string | null }>(
      `select twilio_account_sid, twilio_auth_token_sealed, twilio_sms_from, twilio_whatsapp_from from public.workspace_channels where workspace_id = $1`,
      [workspaceId],
    ),
  );
  if (!row?.twilio_account_sid || !row.twilio_auth_token_sealed) return null;
  const baseUrl = config().TWILIO_API_BASE_URL;
  return {
    accountSid: row.twilio_account_sid,
    authToken: openSecret(row.twilio_auth_token_sealed, requireKeyRing(), twilioTokenContext(workspaceId)),
    from: row.twilio_sms_from,
    whatsappFrom: row.twilio_whatsapp_from,
    ...(baseUrl ? { baseUrl } : {}),
  };
}

export interface SmtpCredentials {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  password: string | null;
  from: string;
  replyTo: string | null;
}

/** The workspace's own SMTP server with its password opened, or null when none is connected. Trusted server code only. */
export async function smtpCredentials(workspaceId: string): Promise<SmtpCredentials | null> {
  const [row] = await asService((tx) =>
    tx.query<Row & { smtp_password_sealed: string | null }>(
      `select ${SETTINGS_COLUMNS}, smtp_password_sealed from public.workspace_channels where workspace_id = $1`,
      [workspaceId],
    ),
  );
  const email = view(row).email;
  if (!email) return null;
  return {
    host: email.host,
    port: email.port,
    secure: email.secure,
    user: email.user,
    password: row!.smtp_password_sealed ? openSecret(row!.smtp_password_sealed, requireKeyRing(), smtpPasswordContext(workspaceId)) : null,
    from: email.from,
    replyTo: email.replyTo,
  };
}

const text = (max: number) => z.string().trim().min(1).max(max);
const address = z.string().trim().email().max(320);
const phone = z.string().trim().regex(/^\+[1-9]\d{6,14}$/);

/**
 * What the Settings → Messages form sends. A section left out is unchanged, `null` disconnects it; a
 * password or token left out keeps the stored one (the form never shows it back).
 */
export const channelSettingsInput = z.strictObject({
  email: z
    .strictObject({
      host: text(255),
      port: z.number().int().min(1).max(65535),
      secure: z.boolean(),
      user: z.string().trim().max(320).optional(),
      password: z.string().min(1).max(500).optional(),
      from: address,
      replyTo: address.optional(),
    })
    .nullable()
    .optional(),
  twilio: z
    .strictObject({
      accountSid: z.string().trim().regex(/^AC[0-9a-fA-F]{32}$/),
      authToken: z.string().trim().min(16).max(200).optional(),
      smsFrom: phone.optional(),
      whatsappFrom: phone.optional(),
    })
    .nullable()
    .optional(),
  dailyCap: z.number().int().min(1).max(10000).optional(),
});
export type ChannelSettingsInput = z.infer<typeof channelSettingsInput>;

/** The workspace's channels as a member sees them, with whether the install's own SMTP covers email. */
export async function readChannelSettings(user: SessionUser, workspaceId: string): Promise<ChannelSettings & { installEmail: boolean }> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  return withUser(user, async (tx) => {
    const [member] = await tx.query(`select 1 from public.workspace_members where workspace_id = $1 and user_id = $2`, [workspaceId, user.id]);
    if (!member) throw notFound('workspace');
    return { ...(await channelSettings(tx, workspaceId)), installEmail: Boolean(config().SMTP_URL || config().SMTP_HOST) };
  }).catch(rethrowAsApiError);
}

/** Saves the workspace's channels (owners and admins; RLS decides too) and returns them as everyone sees them. */
export async function saveChannelSettings(user: SessionUser, workspaceId: string, input: ChannelSettingsInput): Promise<ChannelSettings> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  return withUser(user, async (tx) => {
    const [member] = await tx.query<{ role: string }>(`select role from public.workspace_members where workspace_id = $1 and user_id = $2`, [workspaceId, user.id]);
    if (!member) throw notFound('workspace');
    if (member.role === 'member') throw managersOnly('channels');
    const [existing] = await tx.query<{ smtp_password_set: boolean; twilio_auth_token_set: boolean; twilio_account_sid: string | null }>(
      `select smtp_password_set, twilio_auth_token_set, twilio_account_sid from public.workspace_channels where workspace_id = $1`,
      [workspaceId],
    );
    const seal = (value: string, context: string) => {
      try {
        return sealSecret(value, requireKeyRing(), context);
      } catch (error) {
        if (error instanceof SecretsUnavailableError) throw invalidField('password', 'api.channels.noSecretsKey');
        throw error;
      }
    };
    const set: Record<string, unknown> = { updated_by: user.id };
    if (input.email === null) {
      Object.assign(set, { smtp_host: null, smtp_port: null, smtp_secure: false, smtp_user: null, smtp_password_sealed: null, smtp_from: null, smtp_reply_to: null });
    } else if (input.email) {
      const e = input.email;
      Object.assign(set, { smtp_host: e.host, smtp_port: e.port, smtp_secure: e.secure, smtp_user: e.user || null, smtp_from: e.from, smtp_reply_to: e.replyTo ?? null });
      if (e.password !== undefined) set.smtp_password_sealed = seal(e.password, smtpPasswordContext(workspaceId));
      // No user, no password: a relay that trusts the host.
      else if (!e.user) set.smtp_password_sealed = null;
    }
    if (input.twilio === null) {
      Object.assign(set, { twilio_account_sid: null, twilio_auth_token_sealed: null, twilio_sms_from: null, twilio_whatsapp_from: null });
    } else if (input.twilio) {
      const t = input.twilio;
      if (!t.smsFrom && !t.whatsappFrom) throw invalidField('twilio.smsFrom', 'api.channels.twilioSender');
      Object.assign(set, { twilio_account_sid: t.accountSid, twilio_sms_from: t.smsFrom ?? null, twilio_whatsapp_from: t.whatsappFrom ?? null });
      if (t.authToken) set.twilio_auth_token_sealed = seal(t.authToken, twilioTokenContext(workspaceId));
      // A token belongs to its account: another account needs its own.
      else if (!existing?.twilio_auth_token_set || existing.twilio_account_sid !== t.accountSid) throw invalidField('twilio.authToken', 'api.channels.twilioToken');
    }
    if (input.dailyCap !== undefined) set.daily_cap = input.dailyCap;
    const columns = Object.keys(set);
    const values = Object.values(set);
    if (existing) {
      await tx.query(`update public.workspace_channels set ${columns.map((c, i) => `${c} = $${i + 2}`).join(', ')} where workspace_id = $1`, [workspaceId, ...values]);
    } else {
      await tx.query(`insert into public.workspace_channels (workspace_id, ${columns.join(', ')}) values ($1, ${columns.map((_, i) => `$${i + 2}`).join(', ')})`, [
        workspaceId,
        ...values,
      ]);
    }
    return channelSettings(tx, workspaceId);
  }).catch(rethrowAsApiError);
}
