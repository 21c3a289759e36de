import { outOfQuietHours } from '@/lib/actions';
import { submitAction } from '@/lib/autonomy';
import { asService } from '@/lib/db';
import { defineFunction } from '../define';

/** Reminders go out this long before the appointment (Schedulicity's and most peers' default). */
export const REMINDER_LEAD_MS = 24 * 3_600_000;
/** A reminder that would land closer than this to the appointment is not worth sending. */
const MIN_NOTICE_MS = 2 * 3_600_000;

export type ReminderPlan =
  | { skip: 'missing' | 'cancelled' | 'already_sent' | 'booked_within_a_day' | 'too_late' }
  | { sendAt: string; startsAt: string };

/**
 * When to remind: 24 hours before the start, moved out of the quiet hours (21:00–08:00 in the
 * workspace's time zone) to the next 08:00 — still at least 13 hours ahead. An appointment booked less
 * than a day ahead gets none (the booking confirmation is reminder enough).
 */
export async function planReminder(workspaceId: string, appointmentId: string, now: Date): Promise<ReminderPlan> {
  return asService(async (tx) => {
    const [a] = await tx.query<{ starts_at: Date; created_at: Date; status: string; reminder_sent_at: Date | null; time_zone: string }>(
      `select a.starts_at, a.created_at, a.status, a.reminder_sent_at, w.time_zone
         from public.appointments a join public.workspaces w on w.id = a.workspace_id
        where a.workspace_id = $1 and a.id = $2`,
      [workspaceId, appointmentId],
    );
    if (!a) return { skip: 'missing' };
    if (a.status === 'cancelled') return { skip: 'cancelled' };
    if (a.reminder_sent_at) return { skip: 'already_sent' };
    const target = new Date(a.starts_at.getTime() - REMINDER_LEAD_MS);
    if (target < a.created_at) return { skip: 'booked_within_a_day' };
    const sendAt = await outOfQuietHours(tx, target > now ? target : now, a.time_zone);
    if (a.starts_at.getTime() - sendAt.getTime() < MIN_NOTICE_MS) return { skip: 'too_late' };
    return { sendAt: sendAt.toISOString(), startsAt: a.starts_at.toISOString() };
  });
}

/**
 * booking/created → sleep until the reminder is due → send it (or propose it, or do nothing, as the
 * booking planet's autonomy says). Skipped when the appointment was cancelled or moved meanwhile (a
 * move books anew and starts its own flow). Exactly once: the step results are memoized, the
 * decision's dedupe key admits one reminder per appointment, and `reminder_sent_at` is checked and set
 * under the row lock. Recorded as an agent decision, so an automatic reminder shows in "Done".
 */
export const bookingReminderSmart = defineFunction(
  { id: 'booking-reminder-smart', triggers: [{ event: 'booking/created' }], concurrency: { limit: 10 }, retries: 4 },
  async ({ event, step }) => {
    const { workspaceId, appointmentId } = event.data;
    const plan = await step.run('plan', () => planReminder(workspaceId, appointmentId, new Date()));
    if ('skip' in plan) return { skipped: plan.skip };
    await step.sleepUntil('wait-until-due', plan.sendAt);
    return step.run('remind', () =>
      asService(async (tx) => {
        const [a] = await tx.query<{ status: string; starts_at: Date; reminder_sent_at: Date | null }>(
          `select status, starts_at, reminder_sent_at from public.appointments where workspace_id = $1 and id = $2 for update`,
          [workspaceId, appointmentId],
        );
        if (!a) return { skipped: 'missing' };
        if (a.status === 'cancelled') return { skipped: 'cancelled' };
        if (a.starts_at.toISOString() !== plan.startsAt) return { skipped: 'rescheduled' };
        if (a.reminder_sent_at) return { skipped: 'already_sent' };
        const outcome = await submitAction(tx, {
          workspaceId,
          type: 'booking_reminder',
          input: { appointmentId },
          trigger: 'event:booking/created',
          now: new Date(),
        });
        return outcome;
      }),
    );
  },
);
