import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { eraseCustomer, eraseCustomerSchema } from '@/lib/customers';

const paramsSchema = z.object({ workspaceId: z.uuid(), customerId: z.uuid() });

/**
 * `{confirmName}`: erases the customer everywhere (docs/customers.md); the owner and admins only (403).
 * 422 when the name typed is not theirs; a retry of a done erasure answers 200 with `alreadyErased`.
 */
export const POST = route<{ workspaceId: string; customerId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId, customerId } = parseParams(params, paramsSchema);
  const input = await parseJson(req, eraseCustomerSchema);
  return ok(await eraseCustomer(user, workspaceId, customerId, input));
});
