import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { activateModel, activateModelSchema, territoriesView } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** The territory models and what is out of place under the active one. */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await territoriesView(user, workspaceId));
});

/** `{modelId, apply}`: what switching the active model would move, or (apply) the switch and the moves. */
export const PATCH = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await activateModel(user, workspaceId, await parseJson(req, activateModelSchema)));
});
