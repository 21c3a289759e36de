import { z } from 'zod';
import { ok, parseJson, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { getHomePrefs, homePrefsSchema, saveHomePrefs } from '@/lib/home';

const querySchema = z.object({ workspace_id: z.uuid() });

/** The caller's own Home layout in a workspace: section and planet order, and what is pinned. */
export const GET = route(async ({ req }) => {
  const user = await requireUser(req);
  const { workspace_id: workspaceId } = parseQuery(req, querySchema);
  return ok(await getHomePrefs(user, workspaceId));
});

export const PUT = route(async ({ req }) => {
  const user = await requireUser(req);
  const { workspace_id: workspaceId } = parseQuery(req, querySchema);
  const prefs = await parseJson(req, homePrefsSchema);
  return ok(await saveHomePrefs(user, workspaceId, prefs));
});
