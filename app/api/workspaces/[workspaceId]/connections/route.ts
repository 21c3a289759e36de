import { z } from 'zod';
import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { listConnections, PROVIDERS, startConnection } from '@/lib/connections';

type Params = { workspaceId: string };

/** Settings → Connections: each provider, whether it is configured, and the workspace's connection to it. */
export const GET = route<Params>(async ({ req, params }) => ok(await listConnections(await requireUser(req), params.workspaceId)));

/** Starts connecting (owners and admins): the provider's authorization address to send the browser to. */
export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { provider } = await parseJson(req, z.object({ provider: z.enum(PROVIDERS) }));
  return ok(await startConnection(user, params.workspaceId, provider));
});
