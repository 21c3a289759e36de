import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { deleteRoutine, routinePatchSchema, updateRoutine } from '@/lib/schedule';

type Params = { workspaceId: string; routineId: string };

/** Renames, rewrites, reschedules, pauses or resumes a routine (owners and admins). */
export const PATCH = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  return ok(await updateRoutine(user, params.workspaceId, params.routineId, await parseJson(req, routinePatchSchema)));
});

export const DELETE = route<Params>(async ({ req, params }) => {
  await deleteRoutine(await requireUser(req), params.workspaceId, params.routineId);
  return ok({ deleted: true });
});
