import { describe, expect, it } from 'vitest';
import { createTranslator } from '@/lib/i18n';
import { en } from '@/lib/i18n/messages/en';
import { it as italian } from '@/lib/i18n/messages/it';
import { DEFAULT_DRAFT, describeSchedule, draftOf, scheduleOf, type ScheduleDraft } from './schedule';
import type { ScheduleView } from './types';

const limits = { minMinutes: 5, maxMinutes: 10_080 };

describe('a schedule in words', () => {
  const english = createTranslator(en, 'en');
  const inItalian = createTranslator(italian, 'it');
  const cases: Array<[ScheduleView, string, string]> = [
    [{ kind: 'interval', minutes: 360 }, 'Every 6 hours', 'Ogni 6 ore'],
    [{ kind: 'interval', minutes: 60 }, 'Every hour', 'Ogni ora'],
    [{ kind: 'interval', minutes: 2880 }, 'Every 2 days', 'Ogni 2 giorni'],
    [{ kind: 'interval', minutes: 90 }, 'Every 90 minutes', 'Ogni 90 minuti'],
    [{ kind: 'cron', cron: '0 7 * * *' }, 'Every day at 07:00', 'Ogni giorno alle 07:00'],
    [{ kind: 'cron', cron: '30  8 * * 1-5' }, 'Weekdays at 08:30', 'Nei giorni feriali alle 08:30'],
    [{ kind: 'cron', cron: '0 9 * * 1' }, 'Every Monday at 09:00', 'Ogni lunedì alle 09:00'],
    [{ kind: 'cron', cron: '0 18 * * 7' }, 'Every Sunday at 18:00', 'Ogni domenica alle 18:00'],
    [{ kind: 'cron', cron: '0 9 1 * *' }, 'Cron: 0 9 1 * *', 'Cron: 0 9 1 * *'],
    [{ kind: 'cron', cron: '0 25 * * *' }, 'Cron: 0 25 * * *', 'Cron: 0 25 * * *'],
  ];
  for (const [schedule, inEnglish, inIt] of cases) {
    it(`${JSON.stringify(schedule)} reads "${inEnglish}"`, () => {
      expect(describeSchedule(schedule, english, 'en')).toBe(inEnglish);
      expect(describeSchedule(schedule, inItalian, 'it')).toBe(inIt);
    });
  }
});

describe('the schedule picker', () => {
  it('opens a saved schedule on its preset, its largest whole unit, or the custom field', () => {
    expect(draftOf({ kind: 'cron', cron: '0 8 * * 1-5' }).choice).toBe('weekdays8');
    expect(draftOf({ kind: 'interval', minutes: 1440 })).toMatchObject({ choice: 'interval', every: '1', unit: 'days' });
    expect(draftOf({ kind: 'interval', minutes: 120 })).toMatchObject({ choice: 'interval', every: '2', unit: 'hours' });
    expect(draftOf({ kind: 'interval', minutes: 45 })).toMatchObject({ choice: 'interval', every: '45', unit: 'minutes' });
    expect(draftOf({ kind: 'cron', cron: '15 6 * * 2' })).toMatchObject({ choice: 'custom', cron: '15 6 * * 2' });
  });

  it('sends what it shows, and names the field that is out of range', () => {
    const draft = (over: Partial<ScheduleDraft>): ScheduleDraft => ({ ...DEFAULT_DRAFT, ...over });
    expect(scheduleOf(draft({ choice: 'daily7' }), limits)).toEqual({ schedule: { kind: 'cron', cron: '0 7 * * *' } });
    expect(scheduleOf(draft({ choice: 'interval', every: '6', unit: 'hours' }), limits)).toEqual({ schedule: { kind: 'interval', minutes: 360 } });
    expect(scheduleOf(draft({ choice: 'interval', every: '7', unit: 'days' }), limits)).toEqual({ schedule: { kind: 'interval', minutes: 10_080 } });
    for (const [every, unit] of [['4', 'minutes'], ['8', 'days'], ['1.5', 'hours'], ['', 'hours']] as const) {
      expect(scheduleOf(draft({ choice: 'interval', every, unit }), limits), `${every} ${unit}`).toEqual({ error: 'every' });
    }
    expect(scheduleOf(draft({ choice: 'custom', cron: '   ' }), limits)).toEqual({ error: 'cron' });
    expect(scheduleOf(draft({ choice: 'custom', cron: ' 0  7 * * * ' }), limits)).toEqual({ schedule: { kind: 'cron', cron: '0 7 * * *' } });
  });
});
