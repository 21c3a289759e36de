import { z } from 'zod';
import { ok, parseParams, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { boardQuerySchema, pipelineBoard } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** The pipeline board: stages, open deals (optionally one owner's, or `owner=none`), recently closed ones, owners. */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await pipelineBoard(user, workspaceId, parseQuery(req, boardQuerySchema)));
});
