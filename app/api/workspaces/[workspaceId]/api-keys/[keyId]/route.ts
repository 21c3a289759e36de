import { ok, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { revokeApiKey } from '@/lib/topics';

/** Revokes a key at once: requests made with it are refused from now on (403). */
export const DELETE = route<{ workspaceId: string; keyId: string }>(async ({ req, params }) =>
  ok(await revokeApiKey(await requireUser(req), params.workspaceId, params.keyId)),
);
