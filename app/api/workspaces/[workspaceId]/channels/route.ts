import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { channelSettingsInput, readChannelSettings, saveChannelSettings } from '@/lib/channels';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** The workspace's email, SMS and WhatsApp connections (any member; never a password or token). */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await readChannelSettings(user, workspaceId));
});

/** Connects, changes or disconnects them (owner and admins): `{email?, twilio?, dailyCap?}`, `null` disconnects. */
export const PUT = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok(await saveChannelSettings(user, workspaceId, await parseJson(req, channelSettingsInput)));
});
