import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { commissionPlans, commissionPlanSchema, createCommissionPlan } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** Every commission plan and who is on which; owners and admins. */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await commissionPlans(user, workspaceId));
});

/** `{name, period, baseRateBp, tiers?, productRates?, capCents?}`: a new plan; owners and admins; 201. */
export const POST = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await createCommissionPlan(user, workspaceId, await parseJson(req, commissionPlanSchema)), 201);
});
