import { parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { streamWorkspaceEvents, workspaceQuerySchema } from '@/lib/chat';

// Server-Sent Events for people: `message` / `conversation` events (ids) of one workspace.
export const GET = route(async ({ req }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseQuery(req, workspaceQuerySchema);
  return streamWorkspaceEvents(user, workspaceId, req.signal);
});
