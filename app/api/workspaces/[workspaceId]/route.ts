import { notFound, ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { deleteWorkspace, getWorkspace, updateWorkspace, updateWorkspaceSchema } from '@/lib/workspaces';

type Params = { workspaceId: string };

export const GET = route<Params>(async ({ req, params }) => {
  const workspace = await getWorkspace(await requireUser(req), params.workspaceId);
  if (!workspace) throw notFound('workspace');
  return ok(workspace);
});

export const PATCH = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const input = await parseJson(req, updateWorkspaceSchema);
  return ok(await updateWorkspace(user, params.workspaceId, input));
});

export const DELETE = route<Params>(async ({ req, params }) => {
  await deleteWorkspace(await requireUser(req), params.workspaceId);
  return ok({ deleted: true });
});
