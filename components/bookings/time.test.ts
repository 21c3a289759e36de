import { describe, expect, it } from 'vitest';
import { addDays, freeStarts, wallDate, wallTime, zonedInstant } from './time';

describe('wall-clock time in the workspace zone', () => {
  it('turns a Rome day and time into the instant, in winter and summer and next to the change', () => {
    expect(zonedInstant('2026-12-03', '09:30', 'Europe/Rome')).toBe('2026-12-03T08:30:00.000Z');
    expect(zonedInstant('2026-07-03', '09:30', 'Europe/Rome')).toBe('2026-07-03T07:30:00.000Z');
    expect(zonedInstant('2026-03-29', '09:00', 'Europe/Rome')).toBe('2026-03-29T07:00:00.000Z'); // the morning after the clocks moved
    expect(zonedInstant('2026-12-03', '09:30', 'America/New_York')).toBe('2026-12-03T14:30:00.000Z');
    expect(wallTime('2026-12-03T08:30:00.000Z', 'Europe/Rome')).toBe('09:30');
    expect(wallDate('2026-12-03T23:30:00.000Z', 'Europe/Rome')).toBe('2026-12-04');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('offers the start times that fit between opening, closing and the other appointments', () => {
    const hours = [{ opens: '09:00', closes: '11:00' }];
    expect(freeStarts(hours, [], 60)).toEqual(['09:00', '09:15', '09:30', '09:45', '10:00']);
    expect(freeStarts(hours, [{ start: '09:30', end: '10:00' }], 30)).toEqual(['09:00', '10:00', '10:15', '10:30']);
    expect(freeStarts(hours, [], 60, '09:40')).toEqual(['09:45', '10:00']);
    expect(freeStarts([], [], 30)).toEqual([]); // closed that day
    expect(freeStarts(null, [], 600)).toEqual(['08:00', '08:15', '08:30', '08:45', '09:00', '09:15', '09:30', '09:45', '10:00']);
  });
});
