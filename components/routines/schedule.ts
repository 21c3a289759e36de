import { plural, type Locale, type Translate } from '@/lib/i18n';
import type { ScheduleView } from './types';

/** The schedules offered by name; anything else is an interval or a custom cron. */
export const PRESETS = { daily7: '0 7 * * *', weekdays8: '0 8 * * 1-5', monday9: '0 9 * * 1' } as const;
export type Preset = keyof typeof PRESETS;
export type Choice = Preset | 'interval' | 'custom';
export const CHOICES: Choice[] = ['daily7', 'weekdays8', 'monday9', 'interval', 'custom'];

export type Unit = 'minutes' | 'hours' | 'days';
export const UNITS: Unit[] = ['minutes', 'hours', 'days'];
const MINUTES_PER: Record<Unit, number> = { minutes: 1, hours: 60, days: 1440 };

/** What the schedule picker holds while someone edits it: text as typed, so a half-written number stays. */
export interface ScheduleDraft {
  choice: Choice;
  every: string;
  unit: Unit;
  cron: string;
}

export const DEFAULT_DRAFT: ScheduleDraft = { choice: 'daily7', every: '6', unit: 'hours', cron: '' };

/** The picker's state for a saved schedule: its preset, its interval in the largest whole unit, or custom. */
export function draftOf(schedule: ScheduleView): ScheduleDraft {
  if (schedule.kind === 'interval') {
    const unit = schedule.minutes % 1440 === 0 ? 'days' : schedule.minutes % 60 === 0 ? 'hours' : 'minutes';
    return { ...DEFAULT_DRAFT, choice: 'interval', every: String(schedule.minutes / MINUTES_PER[unit]), unit };
  }
  const cron = normalise(schedule.cron);
  const preset = (Object.keys(PRESETS) as Preset[]).find((p) => PRESETS[p] === cron);
  return preset ? { ...DEFAULT_DRAFT, choice: preset } : { ...DEFAULT_DRAFT, choice: 'custom', cron: schedule.cron };
}

/**
 * The schedule to send, or which field is wrong. Only the interval's range is checked here (the API's
 * rule, said before a round trip); a custom cron goes to the server, whose sentence says what is wrong.
 */
export function scheduleOf(draft: ScheduleDraft, limits: { minMinutes: number; maxMinutes: number }): { schedule: ScheduleView } | { error: 'every' | 'cron' } {
  if (draft.choice === 'interval') {
    const every = Number(draft.every);
    const minutes = every * MINUTES_PER[draft.unit];
    if (!draft.every.trim() || !Number.isInteger(every) || minutes < limits.minMinutes || minutes > limits.maxMinutes) return { error: 'every' };
    return { schedule: { kind: 'interval', minutes } };
  }
  if (draft.choice === 'custom') {
    const cron = normalise(draft.cron);
    return cron ? { schedule: { kind: 'cron', cron } } : { error: 'cron' };
  }
  return { schedule: { kind: 'cron', cron: PRESETS[draft.choice] } };
}

const normalise = (cron: string) => cron.trim().replace(/\s+/g, ' ');
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A schedule in words: "Every 6 hours", "Every day at 07:00", "Weekdays at 08:00", "Every Monday at
 * 09:00". A cron that is not one of those shapes is shown as written.
 */
export function describeSchedule(schedule: ScheduleView, t: Translate, locale: Locale): string {
  if (schedule.kind === 'interval') {
    const { minutes } = schedule;
    if (minutes % 1440 === 0) return plural(t, locale, 'routines.schedule.days', minutes / 1440);
    if (minutes % 60 === 0) return plural(t, locale, 'routines.schedule.hours', minutes / 60);
    return plural(t, locale, 'routines.schedule.minutes', minutes);
  }
  const cron = normalise(schedule.cron);
  const match = /^(\d{1,2}) (\d{1,2}) \* \* (\*|1-5|[0-7])$/.exec(cron);
  const minute = Number(match?.[1]);
  const hour = Number(match?.[2]);
  if (!match || minute > 59 || hour > 23) return t('routines.schedule.cron', { cron });
  const time = `${pad(hour)}:${pad(minute)}`;
  if (match[3] === '*') return t('routines.schedule.daily', { time });
  if (match[3] === '1-5') return t('routines.schedule.weekdays', { time });
  // 7 January 2024 was a Sunday: day 0 (and 7) of cron's week.
  const day = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2024, 0, 7 + (Number(match[3]) % 7)));
  return t('routines.schedule.weekly', { day, time });
}
