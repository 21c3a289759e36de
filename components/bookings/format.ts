import type { Locale } from '@/lib/i18n';

/** Dates and times of the Bookings screen (pure). A day is a calendar date; times are shown in the workspace's zone. */

const utcDay = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d, 12));
};

/** "Tuesday 1 December". */
export const dayTitle = (date: string, locale: Locale) =>
  new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(utcDay(date));

/** "Tue 1 Dec". */
export const shortDay = (date: string, locale: Locale) =>
  new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(utcDay(date));

export const clockTime = (instant: string, locale: Locale, timeZone: string) =>
  new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone }).format(new Date(instant));

/** "9:30 – 10:15". */
export const timeRange = (startsAt: string, endsAt: string, locale: Locale, timeZone: string) =>
  `${clockTime(startsAt, locale, timeZone)} – ${clockTime(endsAt, locale, timeZone)}`;

/** A wall-clock "HH:MM" as the locale writes times. */
export const wallClock = (time: string, locale: Locale) => {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(new Date(Date.UTC(2026, 0, 1, h, m)));
};
