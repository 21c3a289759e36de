import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { appointmentChangeSchema, changeAppointment } from '@/lib/bookings';

const paramsSchema = z.object({ workspaceId: z.uuid(), appointmentId: z.uuid() });

/**
 * `{status}` confirms, cancels, or marks a started appointment completed / no-show; `{startsAt, staffId?}`
 * moves it (the answer is the new appointment: a move cancels the old one and books anew). 409 when
 * the appointment is already final or the new slot is taken.
 */
export const PATCH = route<{ workspaceId: string; appointmentId: string }>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId, appointmentId } = parseParams(params, paramsSchema);
  const change = await parseJson(req, appointmentChangeSchema);
  return ok(await changeAppointment(user, workspaceId, appointmentId, change));
});
