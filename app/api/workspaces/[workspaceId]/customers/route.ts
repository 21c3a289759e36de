import { z } from 'zod';
import { ok, parseParams, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { listCustomers, listCustomersSchema } from '@/lib/customers';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** The customers seen most recently, or those whose name, email or phone matches `q`; any member. */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  const query = parseQuery(req, listCustomersSchema);
  return ok(await listCustomers(user, workspaceId, query));
});
