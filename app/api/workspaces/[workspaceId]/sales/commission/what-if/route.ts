import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { commissionWhatIf, whatIfSchema } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** The commission now and if these open deals were won today (nothing is written). */
export const POST = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await commissionWhatIf(user, workspaceId, await parseJson(req, whatIfSchema)));
});
