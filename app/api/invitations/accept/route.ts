import { z } from 'zod';
import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { acceptInvitation } from '@/lib/workspaces';

export const POST = route(async ({ req }) => {
  const user = await requireUser(req);
  const { token } = await parseJson(req, z.object({ token: z.string().min(20).max(200) }));
  return ok(await acceptInvitation(user, token));
});
