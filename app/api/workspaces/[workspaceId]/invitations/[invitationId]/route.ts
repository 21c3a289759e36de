import { ok, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { revokeInvitation } from '@/lib/workspaces';

export const DELETE = route<{ workspaceId: string; invitationId: string }>(async ({ req, params }) => {
  await revokeInvitation(await requireUser(req), params.workspaceId, params.invitationId);
  return ok({ revoked: true });
});
