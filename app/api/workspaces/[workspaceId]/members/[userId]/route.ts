import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { changeRole, removeMember, roleSchema } from '@/lib/workspaces';

type Params = { workspaceId: string; userId: string };

export const PATCH = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { role } = await parseJson(req, roleSchema);
  await changeRole(user, params.workspaceId, params.userId, role);
  return ok({ userId: params.userId, role });
});

export const DELETE = route<Params>(async ({ req, params }) => {
  await removeMember(await requireUser(req), params.workspaceId, params.userId);
  return ok({ removed: true });
});
