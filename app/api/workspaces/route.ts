import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { createWorkspace, createWorkspaceSchema, listWorkspaces } from '@/lib/workspaces';

export const GET = route(async ({ req }) => ok(await listWorkspaces(await requireUser(req))));

export const POST = route(async ({ req }) => {
  const user = await requireUser(req);
  const input = await parseJson(req, createWorkspaceSchema);
  return ok(await createWorkspace(user, input), 201);
});
