import { z } from 'zod';
import { notFound, ok, parseParams, route } from '@/lib/api';
import { runDetail } from '@/lib/agent';
import { requireUser } from '@/lib/auth';

const paramsSchema = z.object({ workspaceId: z.uuid(), runId: z.uuid() });

/** One agent run: its tool calls with timings, proposals, tokens and outcome. */
export const GET = route<{ workspaceId: string; runId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId, runId } = parseParams(params, paramsSchema);
  const run = await runDetail(user, workspaceId, runId);
  if (!run) throw notFound('run');
  return ok(run);
});
