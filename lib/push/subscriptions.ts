import 'server-only';
import { z } from 'zod';
import { rethrowAsApiError } from '@/lib/api';
import { config } from '@/lib/config';
import { elevated, withUser, type SessionUser } from '@/lib/db';
import type { Locale } from '@/lib/i18n';

// A browser's PushSubscription.toJSON() writes its keys in base64url; some add padding.
const base64url = (bytes: number) =>
  z
    .string()
    .transform((value) => value.replace(/=+$/, ''))
    .pipe(z.string().length(Math.ceil((bytes * 4) / 3), 'api.push.key').regex(/^[A-Za-z0-9_-]+$/, 'api.push.key'));

/**
 * A push service's URL: https, or an origin PUSH_INSECURE_ORIGINS names (a stand-in in tests). The
 * server posts to it, so nothing else is taken: not a page of this app, not plain http on the network.
 */
export const endpointSchema = z
  .url('api.push.endpoint')
  .max(2048, 'api.field.maxChars')
  .refine((text) => {
    // zod runs this check even after .url() refused the text.
    if (!URL.canParse(text)) return false;
    const url = new URL(text);
    return url.protocol === 'https:' || config().PUSH_INSECURE_ORIGINS.includes(url.origin);
  }, 'api.push.endpoint');

/** What the browser's PushSubscription.toJSON() gives (expirationTime and the like are ignored). */
export const pushSubscriptionSchema = z.object({
  endpoint: endpointSchema,
  keys: z.object({ p256dh: base64url(65), auth: base64url(16) }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

export const endpointBodySchema = z.object({ endpoint: endpointSchema });

/**
 * This device notifies `user` from now on. A device has one subscription: if another person subscribed
 * it before (they signed out, this person signed in), it moves to this one, so the last person to turn
 * notifications on is the only one whose cards reach its lock screen. The person's own row is written
 * as the person (RLS); removing someone else's is the server's.
 */
export async function subscribe(user: SessionUser, input: PushSubscriptionInput, locale: Locale): Promise<{ subscribed: true }> {
  return withUser(user, async (tx) => {
    await elevated(tx, (service) => service.query(`delete from public.push_subscriptions where endpoint = $1 and user_id <> $2`, [input.endpoint, user.id]));
    await tx.query(
      `insert into public.push_subscriptions (user_id, endpoint, p256dh, auth, locale) values ($1, $2, $3, $4, $5)
       on conflict (endpoint) do update set p256dh = excluded.p256dh, auth = excluded.auth, locale = excluded.locale, updated_at = now()`,
      [user.id, input.endpoint, input.keys.p256dh, input.keys.auth, locale],
    );
    return { subscribed: true as const };
  }).catch(rethrowAsApiError);
}

/** This device stops notifying `user` (a device of theirs only: RLS). */
export async function unsubscribe(user: SessionUser, endpoint: string): Promise<{ subscribed: false; removed: boolean }> {
  const rows = await withUser(user, (tx) => tx.query(`delete from public.push_subscriptions where endpoint = $1 returning 1`, [endpoint])).catch(rethrowAsApiError);
  return { subscribed: false, removed: rows.length > 0 };
}

/** Whether this device notifies `user` (not merely someone). */
export async function subscriptionStatus(user: SessionUser, endpoint: string): Promise<{ subscribed: boolean }> {
  const rows = await withUser(user, (tx) => tx.query(`select 1 from public.push_subscriptions where endpoint = $1`, [endpoint])).catch(rethrowAsApiError);
  return { subscribed: rows.length > 0 };
}
