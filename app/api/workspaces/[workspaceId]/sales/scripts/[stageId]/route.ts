import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { scriptBodySchema, setCallScript } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid(), stageId: z.uuid() });

/** Writes a stage's call script template; owners and admins. */
export const PUT = route<{ workspaceId: string; stageId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId, stageId } = parseParams(params, paramsSchema);
  const { body } = await parseJson(req, scriptBodySchema);
  return ok(await setCallScript(user, workspaceId, stageId, body));
});
