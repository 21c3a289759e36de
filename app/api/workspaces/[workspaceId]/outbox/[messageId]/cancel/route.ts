import { z } from 'zod';
import { ok, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { cancelMessage } from '@/lib/autonomy';

const paramsSchema = z.object({ workspaceId: z.uuid(), messageId: z.uuid() });

/** Stops a still-queued message (and undoes the action that queued it); 409 once it has been sent. */
export const POST = route<{ workspaceId: string; messageId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId, messageId } = parseParams(params, paramsSchema);
  return ok(await cancelMessage(user, workspaceId, messageId));
});
