import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { quotaInputSchema, setQuota } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** Sets a person's (`userId`) or the team's (`userId: null`) quota for a month or quarter; owners and admins. */
export const PUT = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await setQuota(user, workspaceId, await parseJson(req, quotaInputSchema)));
});
