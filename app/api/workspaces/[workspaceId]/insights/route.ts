import { z } from 'zod';
import { ok, parseParams, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { listInsights } from '@/lib/insights';
import { PLANETS } from '@/lib/planets';

const paramsSchema = z.object({ workspaceId: z.uuid() });
const querySchema = z.object({
  planet: z.enum(PLANETS).optional(),
  days: z.coerce.number().int().min(0).max(90).optional(),
  include_dismissed: z.enum(['true', 'false']).optional(),
});

/** Insights of the last `days` days (default 14), newest and most severe first. */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  const query = parseQuery(req, querySchema);
  return ok(await listInsights(user, workspaceId, { planet: query.planet, days: query.days, includeDismissed: query.include_dismissed === 'true' }));
});
