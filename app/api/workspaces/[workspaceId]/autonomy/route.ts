import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { autonomyChangeSchema, changeAutonomy, getAutonomy } from '@/lib/autonomy';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** The kill switches, each planet's level, the automatic action types and the promotion suggestions. */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await getAutonomy(user, workspaceId));
});

/**
 * One change (owner and admins): `{paused}` for the workspace kill switch, `{planet, autonomy?, paused?}`,
 * `{actionType, auto}`, or `{actionType, suggestion: 'accept' | 'dismiss'}`. Returns the new settings.
 */
export const PATCH = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await changeAutonomy(user, workspaceId, await parseJson(req, autonomyChangeSchema)));
});
