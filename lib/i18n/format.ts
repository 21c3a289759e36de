import type { Locale } from './index';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 days ago", "in 6 days", "tra 2 ore": dates read as distances from now, in the user's language. */
export function formatRelative(date: string | Date, locale: Locale, now: number = Date.now()): string {
  const seconds = Math.round((new Date(date).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, 'minute');
}

/** A full local date and time, for tooltips and `<time>` titles. */
export function formatDateTime(date: string | Date, locale: Locale, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(date));
}

/** Percentage points as a percentage ("+2.5%", "-31,2%" with `signed`). */
export const formatPercent = (n: number, locale: Locale, signed = false) =>
  new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1, signDisplay: signed ? 'exceptZero' : 'auto' }).format(n / 100);

/**
 * A moment near now as people say it (DESIGN.md: dates are relative and local): "today 6:47 PM",
 * "tomorrow 9:30 AM", "Friday 6:47 PM" within the coming week, "Mon, Dec 14, 6:47 PM" further off or
 * before yesterday (with the year only when it is not this year's). Days are counted in `timeZone`
 * (the workspace's; the runtime's own when absent).
 */
export function formatMoment(date: string | Date, locale: Locale, timeZone: string | undefined, now: number = Date.now()): string {
  const when = new Date(date);
  const days = dayNumber(when, timeZone) - dayNumber(new Date(now), timeZone);
  const time = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone }).format(when);
  if (Math.abs(days) <= 1) return `${new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(days, 'day')} ${time}`;
  if (days > 1 && days < 7) return `${new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone }).format(when)} ${time}`;
  const sameYear = yearOf(when, timeZone) === yearOf(new Date(now), timeZone);
  return new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', year: sameYear ? undefined : 'numeric', hour: 'numeric', minute: '2-digit', timeZone }).format(when);
}

/** The calendar day of `date` in `timeZone`, as a count of days. */
function dayNumber(date: Date, timeZone: string | undefined): number {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).format(date).split('-').map(Number);
  return Date.UTC(y!, m! - 1, d!) / 86_400_000;
}

const yearOf = (date: Date, timeZone: string | undefined) => new Intl.DateTimeFormat('en', { year: 'numeric', timeZone }).format(date);
