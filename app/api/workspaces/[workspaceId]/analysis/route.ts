import { ok, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { getAnalysisState, runAnalysisNow } from '@/lib/insights';

type Params = { workspaceId: string };

/** Whether the agents have looked yet, what is running and when the next analysis is. */
export const GET = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  return ok(await getAnalysisState(user, params.workspaceId));
});

/** "Run now": today's analysis starts at once (202: it runs in the background; GET says when it is done). */
export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  return ok(await runAnalysisNow(user, params.workspaceId), 202);
});
