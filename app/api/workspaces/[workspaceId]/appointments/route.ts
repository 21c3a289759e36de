import { z } from 'zod';
import { ok, parseJson, parseParams, parseQuery, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { bookAppointment, bookingSchema, listAppointments, listAppointmentsSchema } from '@/lib/bookings';

const paramsSchema = z.object({ workspaceId: z.uuid() });

/** The appointments of a period (`from`, `to`; default the next 7 days from the start of today), any member. */
export const GET = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  const query = parseQuery(req, listAppointmentsSchema);
  return ok(await listAppointments(user, workspaceId, query));
});

/** Books an appointment (201); 409 when the stylist is busy then, 422 for a closed hour or an unknown customer, service or stylist. */
export const POST = route<{ workspaceId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  const input = await parseJson(req, bookingSchema);
  return ok(await bookAppointment(user, workspaceId, input), 201);
});
