import 'server-only';
import webpush from 'web-push';
import { config } from '@/lib/config';
import { asService } from '@/lib/db';
import { openSecret, requireKeyRing, sealSecret } from '@/lib/secrets';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const SETTING = 'vapid_keys';
/** What the sealed private key is bound to: it opens nowhere else. */
const CONTEXT = 'vapid_private_key';

/** Who push services contact about our pushes: VAPID_SUBJECT, else APP_URL when https, else a mailto at its host. */
function subject(): string {
  const cfg = config();
  if (cfg.VAPID_SUBJECT) return cfg.VAPID_SUBJECT;
  const app = new URL(cfg.APP_URL);
  return app.protocol === 'https:' ? app.origin : `mailto:push@${app.hostname}`;
}

const holder = globalThis as unknown as { __multiverbeVapid?: Promise<VapidKeys | null> };

/**
 * The server's VAPID key pair: from the settings, else (embedded default only) generated once and kept
 * in private.instance_settings with the private key sealed (lib/secrets), so a copy of the database
 * alone cannot sign pushes. Null when pushes are not set up (DATABASE_URL without VAPID keys).
 */
export function vapidKeys(): Promise<VapidKeys | null> {
  holder.__multiverbeVapid ??= loadKeys().catch((error: unknown) => {
    holder.__multiverbeVapid = undefined;
    throw error;
  });
  return holder.__multiverbeVapid;
}

async function loadKeys(): Promise<VapidKeys | null> {
  const cfg = config();
  if (cfg.VAPID_PUBLIC_KEY && cfg.VAPID_PRIVATE_KEY) return { publicKey: cfg.VAPID_PUBLIC_KEY, privateKey: cfg.VAPID_PRIVATE_KEY, subject: subject() };
  if (!cfg.embedded) return null;
  const ring = requireKeyRing();
  const stored = await asService(async (tx) => {
    const fresh = webpush.generateVAPIDKeys();
    const value = JSON.stringify({ publicKey: fresh.publicKey, privateKey: sealSecret(fresh.privateKey, ring, CONTEXT) });
    // Two processes starting at once keep the same pair: the first insert wins, both read it back.
    await tx.query(`insert into private.instance_settings (key, value) values ($1, $2) on conflict (key) do nothing`, [SETTING, value]);
    const [row] = await tx.query<{ value: string }>(`select value from private.instance_settings where key = $1`, [SETTING]);
    return JSON.parse(row!.value) as { publicKey: string; privateKey: string };
  });
  return { publicKey: stored.publicKey, privateKey: openSecret(stored.privateKey, ring, CONTEXT), subject: subject() };
}

/** Tests change the settings between files. */
export function resetVapidForTests() {
  holder.__multiverbeVapid = undefined;
}
