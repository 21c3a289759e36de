import { describe, expect, it } from 'vitest';
import { formatMoment, formatPercent } from './format';

// Tuesday 1 December 2026, 18:00 in Rome (17:00 UTC).
const NOW = Date.parse('2026-12-01T17:00:00Z');
const ROME = 'Europe/Rome';

describe('formatMoment', () => {
  it('says today, tomorrow and yesterday with the time, in English and Italian', () => {
    expect(formatMoment('2026-12-01T20:15:00Z', 'en', ROME, NOW)).toBe('today 9:15 PM');
    expect(formatMoment('2026-12-02T08:30:00Z', 'en', ROME, NOW)).toBe('tomorrow 9:30 AM');
    expect(formatMoment('2026-11-30T08:30:00Z', 'en', ROME, NOW)).toBe('yesterday 9:30 AM');
    expect(formatMoment('2026-12-02T08:30:00Z', 'it', ROME, NOW)).toBe('domani 9:30');
  });

  it('counts days in the workspace’s time zone, not the server’s', () => {
    // 23:30 UTC on the 1st is already the 2nd in Rome.
    expect(formatMoment('2026-12-01T23:30:00Z', 'en', ROME, NOW)).toBe('tomorrow 12:30 AM');
    expect(formatMoment('2026-12-01T23:30:00Z', 'en', 'America/New_York', NOW)).toBe('today 6:30 PM');
  });

  it('names the weekday within the coming week, and the date beyond it, with the year only when it differs', () => {
    expect(formatMoment('2026-12-04T17:47:00Z', 'en', ROME, NOW)).toBe('Friday 6:47 PM');
    expect(formatMoment('2026-12-04T17:47:00Z', 'it', ROME, NOW)).toBe('venerdì 18:47');
    expect(formatMoment('2026-12-14T17:47:00Z', 'en', ROME, NOW)).toBe('Mon, Dec 14, 6:47 PM');
    expect(formatMoment('2026-11-27T17:47:00Z', 'en', ROME, NOW)).toBe('Fri, Nov 27, 6:47 PM');
    expect(formatMoment('2027-01-14T17:47:00Z', 'en', ROME, NOW)).toBe('Thu, Jan 14, 2027, 6:47 PM');
  });
});

describe('formatPercent', () => {
  it('signs a change and writes it in the reader’s language', () => {
    expect(formatPercent(-31.2, 'en', true)).toBe('-31.2%');
    expect(formatPercent(12.5, 'en', true)).toBe('+12.5%');
    expect(formatPercent(-31.2, 'it', true)).toBe('-31,2%');
    expect(formatPercent(0, 'it', true)).toBe('0%');
  });
});
