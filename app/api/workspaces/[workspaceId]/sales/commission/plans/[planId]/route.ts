import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { commissionPlanChangeSchema, updateCommissionPlan } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid(), planId: z.uuid() });

/** Changes a plan's name, period, base rate, tiers, product rates or cap (only the fields given); owners and admins. */
export const PATCH = route<{ workspaceId: string; planId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId, planId } = parseParams(params, paramsSchema);
  return ok(await updateCommissionPlan(user, workspaceId, planId, await parseJson(req, commissionPlanChangeSchema)));
});
