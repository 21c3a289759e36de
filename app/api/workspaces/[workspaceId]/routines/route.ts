import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { createRoutine, listRoutines, routineInputSchema } from '@/lib/schedule';

type Params = { workspaceId: string };

/** Settings → Routines: the workspace's routines with their latest runs (any member). */
export const GET = route<Params>(async ({ req, params }) => ok(await listRoutines(await requireUser(req), params.workspaceId)));

/** A new routine (owners and admins). */
export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  return ok(await createRoutine(user, params.workspaceId, await parseJson(req, routineInputSchema)), 201);
});
