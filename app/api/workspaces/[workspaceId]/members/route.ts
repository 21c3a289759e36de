import { ok, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { listMembers } from '@/lib/workspaces';

export const GET = route<{ workspaceId: string }>(async ({ req, params }) =>
  ok(await listMembers(await requireUser(req), params.workspaceId)),
);
