import { z } from 'zod';
import { ok, parseParams, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { bookingDay, dayQuerySchema } from '@/lib/bookings';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** One local day (`date`, default today in the workspace's zone): staff, services, opening hours, appointments with what the agents did, the waitlist. Any member. */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  const query = parseQuery(req, dayQuerySchema);
  return ok(await bookingDay(user, workspaceId, query));
});
