import { dealTopic } from '@/lib/actions';
import { formatMoment, type Locale, type MessageKey, type Translate } from '@/lib/i18n';
import { money } from '@/lib/planets';
import { deliveryText } from './delivery';
import type { DecisionView, Health, Trend } from './types';

/** Formatting shared by the server-rendered Home and its client islands: pure, no React. */

/** A calendar date, for "waiting since". */
export function shortDate(instant: string | Date, locale: Locale, timeZone: string): string {
  return new Intl.DateTimeFormat(locale, { timeZone, day: 'numeric', month: 'long' }).format(new Date(instant));
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' ? v : 0);

/** What a decision does and why, in the reader's language, from its stored details. */
export function describeDecision(d: Pick<DecisionView, 'actionType' | 'details'>, locale: Locale, timeZone: string, t: Translate) {
  const x = d.details;
  const name = str(x.customerName);
  switch (d.actionType) {
    case 'booking_reminder':
      return {
        what: t('decision.what.booking_reminder', { name, service: str(x.serviceName), when: formatMoment(str(x.startsAt), locale, timeZone) }),
        why: t('decision.why.booking_reminder'),
        subject: name,
      };
    case 'waitlist_offer':
      return {
        what: t('decision.what.waitlist_offer', { name, service: str(x.serviceName), when: formatMoment(str(x.startsAt), locale, timeZone) }),
        why: t('decision.why.waitlist_offer', { name, since: shortDate(str(x.waitingSince), locale, timeZone) }),
        subject: name,
      };
    case 'win_back':
      return {
        what: t('decision.what.win_back', { name }),
        why: t('decision.why.win_back', { gap: num(x.usualGapDays), days: num(x.daysSince) }),
        subject: name,
      };
    case 'deal_follow_up': {
      // "Pacchetto sposa – Giorgia Lombardi" next to Giorgia Lombardi's name is "Pacchetto sposa".
      const deal = dealTopic(str(x.dealTitle), name);
      return {
        what: deal ? t('decision.what.deal_follow_up', { name, deal }) : t('decision.what.deal_follow_up_untitled', { name }),
        why: t('decision.why.deal_follow_up', { days: num(x.idleDays), value: money(num(x.valueCents), locale) }),
        subject: name,
      };
    }
    case 'customer_reply':
      return {
        what: t('needs.customerReply.what', { name, channel: t(`channel.${str(x.channel) === 'email' ? 'email' : str(x.channel) === 'whatsapp' ? 'whatsapp' : 'sms'}`) }),
        why: t('needs.customerReply.why'),
        subject: name,
      };
    case 'gmail_draft':
    case 'gmail_send':
      return { what: t(`decision.what.${d.actionType}`, { to: str(x.to), subject: str(x.subject) }), why: t(`decision.why.${d.actionType}`), subject: str(x.to) };
    case 'calendar_create_event':
      return {
        what: t('decision.what.calendar_create_event', { name, service: str(x.serviceName), when: formatMoment(str(x.startsAt), locale, timeZone) }),
        why: t('decision.why.calendar_create_event'),
        subject: name,
      };
    case 'github_create_issue':
      return { what: t('decision.what.github_create_issue', { title: str(x.title), repo: str(x.repo) }), why: t('decision.why.github_create_issue'), subject: str(x.repo) };
    case 'github_comment':
      return { what: t('decision.what.github_comment', { number: num(x.number), repo: str(x.repo) }), why: t('decision.why.github_comment'), subject: str(x.repo) };
  }
}

/** A decision's state in a list: for one that ran, where its message is (never "done" for a message that has not left). */
export function decisionState(d: Pick<DecisionView, 'status' | 'delivery'>, locale: Locale, timeZone: string, t: Translate): string {
  return d.status === 'executed' && d.delivery ? deliveryText(d.delivery, locale, timeZone, t) : t(`decision.status.${d.status}`);
}

export const healthKey = (health: Health): MessageKey => `health.${health}`;

export function trendText(trend: Trend, changePct: number | null, t: Translate): string {
  if (trend === 'unknown' || changePct === null) return t('trend.unknown');
  if (trend === 'steady') return t('trend.steady');
  return t(trend === 'up' ? 'trend.up' : 'trend.down', { pct: Math.abs(Math.round(changePct)) });
}
