import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { createTerritory, territoryCreateSchema } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid(), modelId: z.uuid() });

/** `{name, ownerUserId, rules, apply}`: what a new territory would move, or (apply) the territory and its moves. */
export const POST = route<{ workspaceId: string; modelId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId, modelId } = parseParams(params, paramsSchema);
  const input = await parseJson(req, territoryCreateSchema);
  const change = await createTerritory(user, workspaceId, modelId, input);
  return ok(change, change.applied ? 201 : 200);
});
