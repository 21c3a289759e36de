import { ok, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { disconnect } from '@/lib/connections';

/** Disconnects (owners and admins): the tokens are deleted and the grant revoked at the provider. */
export const DELETE = route<{ workspaceId: string; connectionId: string }>(async ({ req, params }) =>
  ok(await disconnect(await requireUser(req), params.workspaceId, params.connectionId)),
);
