import { z } from 'zod';
import { ok, parseParams, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { overviewQuerySchema, salesOverview } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** The leaderboard of the month or quarter, the team's quota, and the commissions the caller may see. */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await salesOverview(user, workspaceId, parseQuery(req, overviewQuerySchema)));
});
