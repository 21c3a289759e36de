import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { createApiKey, createApiKeySchema, listApiKeys } from '@/lib/topics';

type Params = { workspaceId: string };

/** Settings → API keys (admins): the workspace's keys, revoked ones last. */
export const GET = route<Params>(async ({ req, params }) => ok(await listApiKeys(await requireUser(req), params.workspaceId)));

/** A new key; the response carries its secret, the only time it is shown. */
export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const input = await parseJson(req, createApiKeySchema);
  return ok(await createApiKey(user, params.workspaceId, input), 201);
});
