import { z } from 'zod';
import { ApiError, unauthorized } from '@/lib/api';
import { config } from '@/lib/config';
import { LOCALES } from '@/lib/i18n';
import { asService } from '@/lib/db';
import { hitRateLimit } from '@/lib/ratelimit';
import { mailLanguage, queueEmail } from './account-mail';
import { newToken, sha256 } from './crypto';
import { hashPassword, verifyPassword } from './passwords';
import { issueSession, type SessionTokens } from './sessions';

const RESET_TOKEN_MINUTES = 60;
const LOGIN_WINDOW_SECONDS = 15 * 60;

export const emailSchema = z.string().trim().toLowerCase().email('api.auth.email').max(254);
export const passwordSchema = z
  .string()
  .min(10, 'api.field.minChars')
  .max(200, 'api.field.maxChars');

export const signUpSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  displayName: z.string().trim().max(80).optional(),
  locale: z.enum(LOCALES).optional(),
  timeZone: z.string().max(64).refine(isTimeZone, 'api.field.unknownTimeZone').optional(),
});

export const signInSchema = z.object({ email: emailSchema, password: z.string().min(1, 'api.auth.passwordRequired').max(200) });

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Creates the account; the auth.users trigger gives it a profile and its personal workspace. */
export async function signUp(input: z.infer<typeof signUpSchema>): Promise<SessionTokens> {
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  const user = await asService(async (tx) => {
    const existing = await tx.query('select 1 from auth.users where lower(email) = $1', [email]);
    if (existing.length) throw new ApiError('conflict', 'api.auth.emailTaken');
    const [row] = await tx.query<{ id: string; email: string }>(
      `insert into auth.users (email, encrypted_password, raw_user_meta_data, email_confirmed_at)
       values ($1, $2, $3::jsonb, now()) returning id, email`,
      [email, passwordHash, JSON.stringify({ display_name: input.displayName ?? '', locale: input.locale, time_zone: input.timeZone })],
    );
    return row!;
  });
  return issueSession(user);
}

/** Rate limited per IP and per email; the same answer for a wrong email and a wrong password. */
export async function signIn(input: z.infer<typeof signInSchema>, ip: string): Promise<SessionTokens> {
  const cfg = config();
  for (const [key, limit] of [
    [`login:ip:${ip}`, cfg.LOGIN_RATE_LIMIT_PER_IP],
    [`login:email:${input.email}`, cfg.LOGIN_RATE_LIMIT_PER_EMAIL],
  ] as const) {
    const result = await hitRateLimit(key, LOGIN_WINDOW_SECONDS, limit);
    if (!result.allowed) {
      throw new ApiError('rate_limited', 'api.auth.tooManySignIns', { minutes: Math.ceil(result.retryAfter / 60) }, { headers: { 'retry-after': String(result.retryAfter) } });
    }
  }
  const [row] = await asService((tx) =>
    tx.query<{ id: string; email: string; encrypted_password: string | null }>(
      'select id, email, encrypted_password from auth.users where lower(email) = lower($1)',
      [input.email],
    ),
  );
  if (!row || !(await verifyPassword(row.encrypted_password, input.password))) {
    throw unauthorized('api.auth.wrongCredentials');
  }
  return issueSession({ id: row.id, email: row.email });
}

/** Always succeeds, so the answer never tells whether an account exists. */
export async function requestPasswordReset(email: string): Promise<void> {
  const token = newToken();
  const link = `${config().APP_URL}/reset-password/confirm?token=${token}`;
  await asService(async (tx) => {
    const [user] = await tx.query<{ id: string; email: string; locale: string | null }>(
      'select u.id, u.email, p.locale from auth.users u left join public.profiles p on p.user_id = u.id where lower(u.email) = lower($1)',
      [email],
    );
    if (!user) return;
    await tx.query(
      `insert into private.password_reset_tokens (token_hash, user_id, expires_at) values ($1, $2, now() + make_interval(mins => $3))`,
      [sha256(token), user.id, RESET_TOKEN_MINUTES],
    );
    const { locale, t } = mailLanguage(user.locale);
    await queueEmail(tx, {
      to: user.email,
      kind: 'password_reset',
      locale,
      subject: t('accountMail.resetSubject'),
      body: t('accountMail.resetBody', { minutes: RESET_TOKEN_MINUTES }),
      link: { url: link, label: t('accountMail.resetLink') },
    });
  });
}

export async function resetPassword(token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await asService(async (tx) => {
    const [row] = await tx.query<{ user_id: string; used_at: Date | null; expired: boolean }>(
      `select user_id, used_at, expires_at <= now() as expired from private.password_reset_tokens where token_hash = $1 for update`,
      [sha256(token)],
    );
    if (!row) throw new ApiError('not_found', 'api.auth.resetInvalid');
    if (row.used_at || row.expired) throw new ApiError('gone', 'api.auth.resetUsed');
    await tx.query('update private.password_reset_tokens set used_at = now() where token_hash = $1', [sha256(token)]);
    await tx.query('update auth.users set encrypted_password = $1, updated_at = now() where id = $2', [passwordHash, row.user_id]);
    // A new password signs out every existing session.
    await tx.query('update private.refresh_tokens set revoked_at = coalesce(revoked_at, now()) where user_id = $1', [row.user_id]);
  });
}

export const DEMO_EMAIL = 'owner@studio-aurora.demo';

/**
 * The seeded demo login, shown on the sign-in page: in embedded mode, or on a server whose operator
 * asked for the demo with SEED_DEMO=1 (the e2e run on Postgres). Never on a production database.
 */
export async function getDemoCredentials(): Promise<{ email: string; password: string } | null> {
  const cfg = config();
  if (!cfg.embedded && cfg.SEED_DEMO !== '1') return null;
  const [row] = await asService((tx) => tx.query<{ value: string }>(`select value from private.instance_settings where key = 'demo_password'`));
  return row ? { email: DEMO_EMAIL, password: row.value } : null;
}
