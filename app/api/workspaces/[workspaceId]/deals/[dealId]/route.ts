import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { changeDeal, dealChangeSchema } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid(), dealId: z.uuid() });

/** `{stageId}` moves an open deal (409 once it is won or lost); `{status}` marks it won, lost or open again. */
export const PATCH = route<{ workspaceId: string; dealId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId, dealId } = parseParams(params, paramsSchema);
  const change = await parseJson(req, dealChangeSchema);
  return ok(await changeDeal(user, workspaceId, dealId, change));
});
