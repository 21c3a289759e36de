import { z } from 'zod';
import { ok, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { composeDailyBrief } from '@/lib/home';

const querySchema = z.object({ workspace_id: z.uuid() });

/** The Home in one call: pulse, proposals waiting for an OK, what was done, planets, suggestions, layout. */
export const GET = route(async ({ req }) => {
  const user = await requireUser(req);
  const { workspace_id: workspaceId } = parseQuery(req, querySchema);
  return ok(await composeDailyBrief(user, workspaceId));
});
