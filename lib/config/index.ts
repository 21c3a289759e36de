import 'server-only';
import { z } from 'zod';
import { BACKENDS } from '@/lib/agent/client';

/** A comma-separated setting: entries trimmed, empty ones dropped, each checked (and normalised) by `item`. */
function commaList(item: z.ZodType<string, string>) {
  return z
    .string()
    .default('')
    .transform((value) => value.split(',').map((entry) => entry.trim()).filter(Boolean))
    .pipe(z.array(item));
}

const parsesAs = (text: string) => {
  try {
    return new URL(text);
  } catch {
    return null;
  }
};

/** A host name as the Host header carries it, without the port (`example.com`, `[::1]`); lower-cased. */
const hostName = z.string().transform((name, ctx) => {
  const url = parsesAs(`http://${name}`);
  if (url && url.href === `http://${url.hostname}/`) return url.hostname;
  ctx.addIssue({ code: 'custom', message: `"${name}" is not a host name (write it without scheme, port or path)` });
  return z.NEVER;
});

/** A web origin as the Origin header carries it (`https://example.com`, `http://localhost:3000`). */
const origin = z.string().transform((text, ctx) => {
  const url = parsesAs(text);
  if (url && (url.protocol === 'https:' || url.protocol === 'http:') && url.href === `${url.origin}/`) return url.origin;
  ctx.addIssue({ code: 'custom', message: `"${text}" is not an origin (write scheme://host[:port], without a path)` });
  return z.NEVER;
});

/**
 * Every setting Multiverbe reads, validated once. Nothing is required for the embedded default;
 * `.env.example` documents each variable with its default.
 */
const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.string().url().optional(),
  /** Directory of the embedded PGlite database. */
  PGLITE_DIR: z.string().default('.data/pglite'),
  /** The app's public address (links in emails, the sign-in hint); default: this machine on PORT. */
  APP_URL: z.string().url().default(`http://localhost:${process.env.PORT ?? 3000}`),
  /** HS256 secret for session JWTs; generated and kept in the database when unset. */
  AUTH_JWT_SECRET: z.string().min(32).optional(),
  NEXT_PUBLIC_SUPABASE_URL: z.string().url().optional(),
  NEXT_PUBLIC_SUPABASE_ANON_KEY: z.string().optional(),
  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
  /** Set to 0 to keep the in-process executor from starting (e.g. when another process runs it). */
  LOCAL_EXECUTOR: z.enum(['0', '1']).default('1'),
  /**
   * Shows the account mail (password resets, invitations, quota warnings) at /dev/mailbox. On by default
   * in embedded mode without the install's SMTP; 1 forces it on, 0 off.
   */
  DEV_MAILBOX: z.enum(['0', '1']).optional(),
  /** The key that opens the whole dev mailbox; generated and kept in the database when unset. */
  DEV_MAILBOX_KEY: z.string().min(32).optional(),
  /**
   * Keys that seal stored passwords and tokens (lib/secrets): `id:base64 of 32 bytes`, comma-separated; the
   * first seals, all open. Unset on the embedded default: one is generated beside the database directory.
   */
  SECRETS_KEYS: z.string().min(1).optional(),
  /**
   * The install's own mail server: account mail (invitations, password resets, quota warnings) and the
   * customer email of a workspace that connected none:
   * `smtp://user:password@host:587` or `smtps://…:465`, or the SMTP_HOST group below (docs/messages.md).
   */
  SMTP_URL: z.string().url().refine((url) => /^smtps?:$/.test(new URL(url).protocol), 'SMTP_URL starts with smtp:// or smtps://').optional(),
  SMTP_HOST: z.string().min(1).optional(),
  /** 465 means TLS from the first byte; any other port upgrades with STARTTLS when the server offers it. */
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  SMTP_USER: z.string().min(1).optional(),
  SMTP_PASSWORD: z.string().min(1).optional(),
  /** The install's sender, e.g. `Multiverbe <no-reply@example.com>`; needed with SMTP_URL or SMTP_HOST. */
  SMTP_FROM: z.string().min(3).optional(),
  /** Twilio's API origin, for a stand-in (the tests'); unset: Twilio's own. */
  TWILIO_API_BASE_URL: z.string().url().optional(),
  /**
   * The domain of the install's reply addresses (`reply+<token>@<domain>`, docs/replies.md), whose mail the
   * provider posts to each workspace's inbound URL; unset: email replies are not offered.
   */
  INBOUND_EMAIL_DOMAIN: z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i).optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  LOGIN_RATE_LIMIT_PER_IP: z.coerce.number().int().positive().default(20),
  LOGIN_RATE_LIMIT_PER_EMAIL: z.coerce.number().int().positive().default(5),
  SEED_DEMO: z.enum(['0', '1']).optional(),
  /** The model backend every agent uses unless the agent or workspace names one; unset = chosen automatically. */
  MODEL_BACKEND: z.enum(BACKENDS).optional(),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  /** Another Messages API endpoint (a proxy, a gateway, the test server). */
  ANTHROPIC_BASE_URL: z.string().url().optional(),
  CLAUDE_MODEL: z.string().min(1).default('claude-sonnet-4-6'),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_MODEL: z.string().min(1).default('gpt-5-mini'),
  /** The Codex CLI to run for the `codex` backend; found on PATH when unset. */
  CODEX_BIN: z.string().min(1).default('codex'),
  /** Model passed to `codex exec --model`; Codex's own default when unset. */
  CODEX_MODEL: z.string().min(1).optional(),
  /** Retries of one model call on 429 / 5xx / overload (honouring retry-after) before the run fails. */
  AGENT_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  /** The topic API's single-tenant key (OpusAgent's API_KEY): accepted as a key of the default workspace. */
  API_KEY: z.string().min(1).optional(),
  /** The workspace API_KEY belongs to; unset = the oldest team workspace (else the oldest workspace). */
  API_KEY_WORKSPACE_ID: z.uuid().optional(),
  /** Submits (POST /api/requests) per API key per minute and per hour. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_PER_HOUR: z.coerce.number().int().positive().default(100),
  /** Topic requests a workspace runs at once unless its own setting says otherwise (1–10). */
  TOPIC_QUEUE_CONCURRENCY: z.coerce.number().int().min(1).max(10).default(1),
  /**
   * How live events (new messages, new work for agents) reach every app process: `postgres` is
   * LISTEN/NOTIFY (one node, or several on a direct connection); `supabase` is Supabase Realtime
   * broadcast, for several instances behind the transaction pooler, where LISTEN does not work.
   */
  REALTIME_TRANSPORT: z.enum(['postgres', 'supabase']).default('postgres'),
  /** The Supabase project URL for server-side use; defaults to NEXT_PUBLIC_SUPABASE_URL. */
  SUPABASE_URL: z.string().url().optional(),
  /** Server only, never sent to a browser: joins the private Realtime channel the app's processes share. */
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(1).optional(),
  /**
   * More host names the MCP endpoint answers to, besides APP_URL's (and localhost, 127.0.0.1 and [::1]
   * when APP_URL is one of those): comma-separated, without a port, IPv6 in brackets.
   */
  MCP_ALLOWED_HOSTS: commaList(hostName),
  /** More origins whose web pages may call the MCP endpoint, besides APP_URL's own: comma-separated `scheme://host[:port]`. */
  MCP_ALLOWED_ORIGINS: commaList(origin),
  /**
   * Web Push (VAPID, RFC 8292): the app server's P-256 key pair, base64url as `web-push generate-vapid-keys`
   * prints it. Unset on the embedded default: a pair is generated once and kept in the database, its
   * private half encrypted (lib/secrets). Unset with DATABASE_URL: no pushes.
   */
  VAPID_PUBLIC_KEY: z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'a P-256 public key: 87 base64url characters').optional(),
  VAPID_PRIVATE_KEY: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a P-256 private key: 43 base64url characters').optional(),
  /** Who push services contact about this server's pushes: `mailto:…` or `https://…`; default APP_URL when https, else mailto:push@<APP_URL's host>. */
  VAPID_SUBJECT: z.string().regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'mailto:<address> or an https URL').optional(),
  /**
   * Push services reached over plain http, besides every https one: comma-separated origins. Only for a
   * local stand-in in tests: a subscription's endpoint is a URL the server posts to.
   */
  PUSH_INSECURE_ORIGINS: commaList(origin),
  /** Google OAuth client (Gmail and Calendar connections); both or neither. Redirect URI: APP_URL/api/connections/google/callback. */
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  /** GitHub OAuth app (issues and pull requests); both or neither. Callback URL: APP_URL/api/connections/github/callback. */
  GITHUB_CLIENT_ID: z.string().min(1).optional(),
  GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
  /** Where Google's and GitHub's endpoints are: the real ones unless a test or a proxy says otherwise. */
  GOOGLE_ACCOUNTS_URL: z.string().url().default('https://accounts.google.com'),
  GOOGLE_OAUTH_URL: z.string().url().default('https://oauth2.googleapis.com'),
  GOOGLE_API_URL: z.string().url().default('https://www.googleapis.com'),
  GITHUB_URL: z.string().url().default('https://github.com'),
  GITHUB_API_URL: z.string().url().default('https://api.github.com'),
});

export type Config = z.infer<typeof schema> & {
  embedded: boolean;
  supabaseAuth: boolean;
  inngestCloud: boolean;
  devMailbox: boolean;
  /** The install's own SMTP is set (SMTP_URL or SMTP_HOST): account mail is sent through it. */
  smtpConfigured: boolean;
  /** Set when REALTIME_TRANSPORT=supabase: where the app's processes meet. */
  supabaseRealtime: { url: string; serviceRoleKey: string } | null;
  /** What the MCP endpoint accepts in the Host header (host names, no port) and the Origin header. */
  mcpAllowed: { hosts: string[]; origins: string[] };
};

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The MCP endpoint's DNS-rebinding guard: APP_URL's host and origin — on a loopback install under each
 * of the machine's three names, at APP_URL's scheme and port — plus the ones configured.
 */
function mcpAllowed(env: z.infer<typeof schema>): Config['mcpAllowed'] {
  const app = new URL(env.APP_URL);
  const names = LOOPBACK_NAMES.includes(app.hostname) ? LOOPBACK_NAMES : [app.hostname];
  const port = app.port ? `:${app.port}` : '';
  return {
    hosts: [...new Set([...names, ...env.MCP_ALLOWED_HOSTS])],
    origins: [...new Set([...names.map((name) => `${app.protocol}//${name}${port}`), ...env.MCP_ALLOWED_ORIGINS])],
  };
}

/** Settings that only make sense together, with what to do about them. */
function combinationErrors(env: z.infer<typeof schema>): string[] {
  const errors: string[] = [];
  // Half of a pair would otherwise be ignored without a word: the app would run on the embedded default.
  if (Boolean(env.INNGEST_EVENT_KEY) !== Boolean(env.INNGEST_SIGNING_KEY)) {
    errors.push('INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY go together: set both to run background work on Inngest, or neither for the local executor.');
  }
  if (env.NEXT_PUBLIC_SUPABASE_URL && !env.NEXT_PUBLIC_SUPABASE_ANON_KEY) {
    errors.push('NEXT_PUBLIC_SUPABASE_URL needs NEXT_PUBLIC_SUPABASE_ANON_KEY: with the URL set, sessions come from Supabase Auth.');
  }
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
    errors.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both (npx web-push generate-vapid-keys), or neither.');
  }
  for (const provider of ['GOOGLE', 'GITHUB'] as const) {
    if (Boolean(env[`${provider}_CLIENT_ID`]) !== Boolean(env[`${provider}_CLIENT_SECRET`])) {
      errors.push(`${provider}_CLIENT_ID and ${provider}_CLIENT_SECRET go together: set both to let people connect ${provider === 'GOOGLE' ? 'Google' : 'GitHub'}, or neither.`);
    }
  }
  if (env.REALTIME_TRANSPORT === 'supabase') {
    if (!env.DATABASE_URL) errors.push('REALTIME_TRANSPORT=supabase needs DATABASE_URL: the Supabase project database that Realtime reads.');
    if (!env.SUPABASE_URL && !env.NEXT_PUBLIC_SUPABASE_URL) errors.push('REALTIME_TRANSPORT=supabase needs SUPABASE_URL (or NEXT_PUBLIC_SUPABASE_URL): the project URL.');
    if (!env.SUPABASE_SERVICE_ROLE_KEY) errors.push('REALTIME_TRANSPORT=supabase needs SUPABASE_SERVICE_ROLE_KEY to join the private channel.');
  }
  if ((env.SMTP_URL || env.SMTP_HOST) && !env.SMTP_FROM) errors.push('SMTP_URL / SMTP_HOST need SMTP_FROM: the address the install\'s mail comes from.');
  if (env.SMTP_URL && env.SMTP_HOST) errors.push('Set SMTP_URL or SMTP_HOST (with SMTP_PORT, SMTP_USER, SMTP_PASSWORD), not both.');
  return errors;
}

let cached: Config | undefined;

export function config(): Config {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}\nSee .env.example for every setting.`);
  }
  const env = parsed.data;
  const combined = combinationErrors(env);
  if (combined.length) throw new Error(`Invalid configuration:\n${combined.map((e) => `  ${e}`).join('\n')}\nSee .env.example for every setting.`);
  const embedded = !env.DATABASE_URL;
  const smtpConfigured = Boolean(env.SMTP_URL || env.SMTP_HOST);
  cached = {
    ...env,
    embedded,
    supabaseAuth: Boolean(env.NEXT_PUBLIC_SUPABASE_URL),
    inngestCloud: Boolean(env.INNGEST_EVENT_KEY && env.INNGEST_SIGNING_KEY),
    // Mail that really leaves needs no stand-in mailbox (whose key would be one more way to read reset links).
    devMailbox: env.DEV_MAILBOX ? env.DEV_MAILBOX === '1' : embedded && !smtpConfigured,
    smtpConfigured,
    supabaseRealtime:
      env.REALTIME_TRANSPORT === 'supabase' ? { url: (env.SUPABASE_URL ?? env.NEXT_PUBLIC_SUPABASE_URL)!, serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY! } : null,
    mcpAllowed: mcpAllowed(env),
  };
  return cached;
}

/** Tests change the environment between files; they call this to re-read it. */
export function resetConfigForTests() {
  cached = undefined;
}
