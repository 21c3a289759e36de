import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { requestLocale } from '@/lib/i18n';
import { endpointBodySchema, pushSubscriptionSchema, subscribe, unsubscribe } from '@/lib/push';

/** POST `{endpoint, keys}` (PushSubscription.toJSON()): this device notifies the signed-in person. Its notifications speak the request's language. */
export const POST = route(async ({ req }) => {
  const user = await requireUser(req);
  const subscription = await parseJson(req, pushSubscriptionSchema);
  return ok(await subscribe(user, subscription, requestLocale(req)), 201);
});

/** DELETE `{endpoint}`: this device stops notifying the signed-in person. */
export const DELETE = route(async ({ req }) => {
  const user = await requireUser(req);
  const { endpoint } = await parseJson(req, endpointBodySchema);
  return ok(await unsubscribe(user, endpoint));
});
