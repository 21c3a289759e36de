import { z } from 'zod';
import { MESSAGE_STATUSES } from '@/lib/actions';
import { ok, parseParams, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { listOutbox } from '@/lib/autonomy';

const paramsSchema = z.object({ workspaceId: z.uuid() });
const querySchema = z.object({
  status: z.enum(MESSAGE_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  before: z.iso.datetime({ offset: true }).optional(),
});

/** The messages actions queued, newest first, each with where it is now (`sent` only once a provider took it); any member. */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  const query = parseQuery(req, querySchema);
  return ok(await listOutbox(user, workspaceId, { status: query.status, limit: query.limit, before: query.before ? new Date(query.before) : undefined }));
});
