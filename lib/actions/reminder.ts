import { z } from 'zod';
import type { Tx } from '@/lib/db';
import { contactOf, HOUR, iso, MESSAGE_MAX } from './contact';
import { composeMessage, firstName, formatWhen } from './messages';
import { queueMessage } from './outbox';
import type { ActionDefinition } from './types';

/** A reminder proposal can be approved until this long before the appointment. */
export const REMINDER_APPROVAL_LEAD_MS = 2 * HOUR;

export const bookingReminderInput = z.object({
  appointmentId: z.uuid().describe('The appointment to remind the customer of.'),
  message: z.string().trim().min(1).max(MESSAGE_MAX).optional().describe('The exact text to send; the standard reminder when omitted.'),
});

interface AppointmentRow {
  id: string;
  starts_at: Date;
  status: string;
  reminder_sent_at: Date | null;
  customer_id: string;
  name: string;
  email: string | null;
  phone: string | null;
  consent_messages: boolean;
  service: string;
  staff: string;
}

async function loadAppointment(tx: Tx, workspaceId: string, appointmentId: string, lock = false) {
  const [row] = await tx.query<AppointmentRow>(
    `select a.id, a.starts_at, a.status, a.reminder_sent_at, a.customer_id, c.name, c.email, c.phone, c.consent_messages,
            s.name as service, st.name as staff
       from public.appointments a
       join public.customers c on c.workspace_id = a.workspace_id and c.id = a.customer_id
       join public.services s on s.workspace_id = a.workspace_id and s.id = a.service_id
       join public.staff st on st.workspace_id = a.workspace_id and st.id = a.staff_id
      where a.workspace_id = $1 and a.id = $2${lock ? ' for update of a' : ''}`,
    [workspaceId, appointmentId],
  );
  return row;
}

/** A reminder of an upcoming appointment, once (`appointments.reminder_sent_at` is the guard). */
export const bookingReminder: ActionDefinition<z.infer<typeof bookingReminderInput>> = {
  type: 'booking_reminder',

  async prepare(tx, { workspace, now }, input) {
    const a = await loadAppointment(tx, workspace.id, input.appointmentId);
    if (!a) return { ok: false, reason: 'There is no such appointment in this workspace.' };
    if (a.status !== 'booked' && a.status !== 'confirmed') return { ok: false, reason: `The appointment is ${a.status}, so no reminder is needed.` };
    if (a.reminder_sent_at) return { ok: false, reason: 'A reminder was already sent for this appointment.' };
    if (a.starts_at.getTime() - REMINDER_APPROVAL_LEAD_MS <= now.getTime()) return { ok: false, reason: 'The appointment is too close for a reminder.' };
    if (!a.consent_messages) return { ok: false, reason: 'The customer has not agreed to receive messages.' };
    const contact = contactOf(a);
    if (!contact) return { ok: false, reason: 'The customer has neither a phone number nor an email address.' };
    const when = formatWhen(workspace, a.starts_at);
    const composed = composeMessage(workspace, 'reminder', { first: firstName(a.name), when, service: a.service });
    return {
      ok: true,
      action: {
        type: 'booking_reminder',
        planet: 'booking',
        args: {
          appointmentId: a.id,
          startsAt: iso(a.starts_at),
          customerId: a.customer_id,
          channel: contact.channel,
          to: contact.to,
          subject: composed.subject,
          message: input.message ?? composed.body,
        },
        details: { customerName: a.name, serviceName: a.service, staffName: a.staff, startsAt: iso(a.starts_at) },
        dedupeKey: `booking_reminder:${a.id}`,
        expiresAt: new Date(a.starts_at.getTime() - REMINDER_APPROVAL_LEAD_MS),
      },
    };
  },

  async execute(tx, { workspace, now }, args, decisionId) {
    const a = await loadAppointment(tx, workspace.id, String(args.appointmentId), true);
    if (!a) return { ok: false, error: 'The appointment no longer exists.' };
    if (a.status === 'cancelled') return { ok: false, error: 'The appointment was cancelled.' };
    if (a.status !== 'booked' && a.status !== 'confirmed') return { ok: false, error: `The appointment is ${a.status}.` };
    if (iso(a.starts_at) !== args.startsAt) return { ok: false, error: 'The appointment was moved to another time.' };
    if (a.reminder_sent_at) return { ok: false, error: 'A reminder was already sent for this appointment.' };
    if (!a.consent_messages) return { ok: false, error: 'The customer withdrew consent to messages.' };
    await tx.query(`update public.appointments set reminder_sent_at = $3 where workspace_id = $1 and id = $2`, [workspace.id, a.id, now.toISOString()]);
    const message = await queueMessage(tx, {
      workspaceId: workspace.id,
      timeZone: workspace.timeZone,
      decisionId,
      customerId: a.customer_id,
      channel: args.channel as 'sms' | 'email',
      recipient: String(args.to),
      recipientName: a.name,
      subject: String(args.subject ?? ''),
      body: String(args.message),
      now,
    });
    return { ok: true, result: { messageIds: [message.id], reminderSentAt: now.toISOString() } };
  },

  async undo(tx, { workspace }, args, result) {
    // Only the mark this execution set: a reminder sent since by someone else stays recorded.
    await tx.query(`update public.appointments set reminder_sent_at = null where workspace_id = $1 and id = $2 and reminder_sent_at = $3`, [
      workspace.id,
      args.appointmentId,
      result.reminderSentAt,
    ]);
  },
};
