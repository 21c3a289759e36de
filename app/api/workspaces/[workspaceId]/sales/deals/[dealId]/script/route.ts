import { z } from 'zod';
import { ok, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { dealScript } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid(), dealId: z.uuid() });

/** A deal's call script: its stage's template filled with the customer, the deal and the last contact. */
export const GET = route<{ workspaceId: string; dealId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId, dealId } = parseParams(params, paramsSchema);
  return ok(await dealScript(user, workspaceId, dealId));
});
