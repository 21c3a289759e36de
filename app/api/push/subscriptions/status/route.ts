import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { endpointBodySchema, subscriptionStatus } from '@/lib/push';

/** POST `{endpoint}`: whether this device notifies the signed-in person (in a body: an endpoint is not for access logs). */
export const POST = route(async ({ req }) => {
  const user = await requireUser(req);
  const { endpoint } = await parseJson(req, endpointBodySchema);
  return ok(await subscriptionStatus(user, endpoint));
});
