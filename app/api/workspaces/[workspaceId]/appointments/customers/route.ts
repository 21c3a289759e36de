import { z } from 'zod';
import { ok, parseParams, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { customerSearchSchema, findCustomers } from '@/lib/bookings';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** Customers to book (`q`: part of a name, phone or email; at most 20). Any member. */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  const { q } = parseQuery(req, customerSearchSchema);
  return ok(await findCustomers(user, workspaceId, q));
});
