import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { createInvitation, inviteSchema, listInvitations } from '@/lib/workspaces';

type Params = { workspaceId: string };

export const GET = route<Params>(async ({ req, params }) => ok(await listInvitations(await requireUser(req), params.workspaceId)));

export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const input = await parseJson(req, inviteSchema);
  return ok(await createInvitation(user, params.workspaceId, input), 201);
});
