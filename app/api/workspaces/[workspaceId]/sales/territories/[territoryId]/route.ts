import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { changeTerritory, territoryChangeSchema } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid(), territoryId: z.uuid() });

/** Changes a territory's name, owner or rules: `apply: false` previews what would move, `apply: true` does it. */
export const PATCH = route<{ workspaceId: string; territoryId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId, territoryId } = parseParams(params, paramsSchema);
  return ok(await changeTerritory(user, workspaceId, territoryId, await parseJson(req, territoryChangeSchema)));
});
