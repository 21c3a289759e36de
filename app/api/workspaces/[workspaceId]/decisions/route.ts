import { z } from 'zod';
import { ok, parseParams, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { DECISION_STATUSES, DECISION_TIERS, listDecisions } from '@/lib/autonomy';
import { PLANETS } from '@/lib/planets';

const paramsSchema = z.object({ workspaceId: z.uuid() });
const querySchema = z.object({
  status: z.enum(DECISION_STATUSES).optional(),
  tier: z.enum(DECISION_TIERS).optional(),
  planet: z.enum(PLANETS).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  /** Decisions created before this instant (the createdAt of the last one on the previous page). */
  before: z.iso.datetime({ offset: true }).optional(),
});

/** Every action proposed or taken in the workspace, newest first (any member). */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  const query = parseQuery(req, querySchema);
  return ok(await listDecisions(user, workspaceId, { ...query, before: query.before ? new Date(query.before) : undefined }));
});
