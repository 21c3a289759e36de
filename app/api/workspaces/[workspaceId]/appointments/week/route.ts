import { z } from 'zod';
import { ok, parseParams, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { bookingWeek, dayQuerySchema } from '@/lib/bookings';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** The Monday-to-Sunday week holding `date` (default today in the workspace's zone): per day, appointments per staff member and who waits. Any member. */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  const query = parseQuery(req, dayQuerySchema);
  return ok(await bookingWeek(user, workspaceId, query));
});
