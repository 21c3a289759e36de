import { ok, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { listWorkspaces } from '@/lib/workspaces';

export const GET = route(async ({ req }) => {
  const user = await requireUser(req);
  return ok({ user, workspaces: await listWorkspaces(user) });
});
