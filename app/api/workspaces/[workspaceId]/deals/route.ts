import { z } from 'zod';
import { ok, parseJson, parseParams, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { boardQuerySchema, createDeal, dealCreateSchema, pipelineBoard } from '@/lib/sales';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** The pipeline board: stages, open deals (optionally one owner's, or `owner=none`), recently closed ones, owners. */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await pipelineBoard(user, workspaceId, parseQuery(req, boardQuerySchema)));
});

/** Opens a deal owned by whoever the active territory model routes it to (nobody when no rule matches); 201. */
export const POST = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await createDeal(user, workspaceId, await parseJson(req, dealCreateSchema)), 201);
});
