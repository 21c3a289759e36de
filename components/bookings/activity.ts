import { deliveryText } from '@/components/home/delivery';
import { formatMoment, type Locale, type Translate } from '@/lib/i18n';
import type { ActivityView, AppointmentItem } from './types';

/**
 * What the reminder and waitlist agents did for an appointment, in the reader's words. A message that
 * was queued reads "Ready to send — no SMS or email is connected" until a provider really sends it
 * (components/home/delivery.ts); nothing here says "sent" for what did not leave. An upcoming
 * appointment the reminder agent has not touched says so, and why when it never will (no consent).
 */
export function activityLines(a: AppointmentItem, now: number, locale: Locale, timeZone: string, t: Translate): string[] {
  const lines = a.agentActivity.map((x) => activityLine(x, locale, timeZone, t));
  const reminded = a.agentActivity.some((x) => x.actionType === 'booking_reminder');
  if (!reminded && (a.status === 'booked' || a.status === 'confirmed') && Date.parse(a.startsAt) > now) {
    // A mark without a decision: a reminder recorded before this install kept an outbox (imported or seeded history).
    if (a.reminderSentAt) lines.push(t('bookings.activity.reminderMarked', { when: formatMoment(a.reminderSentAt, locale, timeZone, now) }));
    else lines.push(t(a.consentMessages ? 'bookings.activity.noReminder' : 'bookings.activity.noConsent'));
  }
  return lines;
}

function activityLine(x: ActivityView, locale: Locale, timeZone: string, t: Translate): string {
  const state = x.status === 'executed' && x.delivery ? deliveryText(x.delivery, locale, timeZone, t) : t(`bookings.decision.${x.status}`);
  return x.actionType === 'booking_reminder' ? t('bookings.activity.reminder', { state }) : t('bookings.activity.offer', { name: x.recipientName, state });
}
