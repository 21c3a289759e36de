import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { createTerritoryModel, territoryModelSchema } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** `{name}`: a new territory model (the first one is made active); owners and admins; 201. */
export const POST = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await createTerritoryModel(user, workspaceId, await parseJson(req, territoryModelSchema)), 201);
});
