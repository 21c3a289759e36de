import { z } from 'zod';
import { ok, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { callScripts } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** Each stage with its call script template. */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await callScripts(user, workspaceId));
});
