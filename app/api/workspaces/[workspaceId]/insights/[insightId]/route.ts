import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { insightStatusSchema, setInsightStatus } from '@/lib/insights';

const paramsSchema = z.object({ workspaceId: z.uuid(), insightId: z.uuid() });

/** `{status: 'seen' | 'dismissed'}`: a dismissed insight is left alone by later runs of the same day. */
export const PATCH = route<{ workspaceId: string; insightId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId, insightId } = parseParams(params, paramsSchema);
  const { status } = await parseJson(req, insightStatusSchema);
  return ok(await setInsightStatus(user, workspaceId, insightId, status));
});
