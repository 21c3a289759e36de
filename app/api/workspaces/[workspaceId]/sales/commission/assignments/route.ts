import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { assignmentSchema, assignPlan } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** `{userId, planId}` puts a person on a commission plan, `planId: null` on none; owners and admins. */
export const PUT = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await assignPlan(user, workspaceId, await parseJson(req, assignmentSchema)));
});
