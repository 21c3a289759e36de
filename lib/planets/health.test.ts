import { describe, expect, it } from 'vitest';
import { createTranslator } from '@/lib/i18n';
import { en } from '@/lib/i18n/messages/en';
import { it as itDict } from '@/lib/i18n/messages/it';
import { loadSectorBenchmark } from '@/lib/knowledge';
import { assessHealth, FALL_RULES, healthReason, PLANETS, type Metric } from '.';

const hair = loadSectorBenchmark('hair_salon');
const english = createTranslator(en, 'en');
const italian = createTranslator(itDict, 'it');
const count = (value: number, previous: number): Metric => ({ value, unit: 'count', previous, changePct: Math.round(((value - previous) / previous) * 1000) / 10 });

/** Studio Aurora's booking planet on the Thursday the issue was filed: it said "Good". */
const demoBooking = {
  metrics: {
    bookings_week: count(41, 58),
    occupancy_week: { value: 0.18625, unit: 'ratio', previous: 0.29, changePct: -35.8 },
    no_show_rate_30d: { value: 0.049, unit: 'ratio' },
    rebooking_rate_30d: { value: 0.78, unit: 'ratio' },
  } satisfies Record<string, Metric>,
  samples: { bookings_week: 58, occupancy_week: 58, no_show_rate_30d: 203, rebooking_rate_30d: 193 },
};

/** Its customers planet the same week: leads up 400%, conversion a little under an estimated 30%. It said "Watch". */
const demoCustomers = {
  metrics: {
    leads_7d: count(10, 2),
    new_customers_30d: count(11, 10),
    lead_conversion_90d: { value: 0.2857, unit: 'ratio' },
    average_visit_gap_days: { value: 40.1, unit: 'days' },
  } satisfies Record<string, Metric>,
  samples: { leads_7d: 2, new_customers_30d: 10, lead_conversion_90d: 35, average_visit_gap_days: 250 },
};

describe('planet health rules', () => {
  it('says Watch for bookings down 29% and occupancy down 36% on last week, and says why in both languages', () => {
    const booking = assessHealth('booking', demoBooking.metrics, demoBooking.samples, hair);
    expect(booking.health).toBe('watch');
    expect(booking.findings.map((f) => [f.kind, f.metric])).toEqual([
      ['fall', 'bookings_week'],
      ['fall', 'occupancy_week'],
    ]);
    expect(healthReason(booking.findings[0]!, 'Hair salon', 'en', english)).toBe('bookings down 29% on last week (41 against 58)');
    expect(english('healthReason.line', { health: english('health.watch'), reason: healthReason(booking.findings[0]!, 'Hair salon', 'en', english) })).toBe(
      'Watch: bookings down 29% on last week (41 against 58)',
    );
    expect(healthReason(booking.findings[1]!, 'Parrucchiere', 'it', italian)).toBe('occupazione in calo del 36% sulla settimana scorsa (18,6% contro 29%)');
  });

  it('does not say Watch for customers whose leads rose 400% and whose conversion is within 10% of the benchmark', () => {
    expect(assessHealth('crm', demoCustomers.metrics, demoCustomers.samples, hair)).toEqual({ health: 'good', findings: [] });
  });

  it('never flags a good-direction metric that is rising, even below its benchmark', () => {
    const engagement = (changePct: number) =>
      assessHealth('content', { engagement_rate_30d: { value: 0.02, unit: 'ratio', previous: 0.02 / (1 + changePct / 100), changePct } }, { engagement_rate_30d: 5000 }, hair);
    expect(engagement(20)).toEqual({ health: 'good', findings: [] });
    expect(engagement(5).health).toBe('act'); // steady (within ±5%): half the 4% benchmark is judged as it is
    expect(engagement(-10).health).toBe('act');
    expect(assessHealth('booking', { bookings_week: count(80, 58) }, { bookings_week: 58 }, hair).health).toBe('good');
  });

  it('makes a fall Watch at 20% and never more, and leaves small numbers alone', () => {
    const bookings = (value: number, previous: number) => assessHealth('booking', { bookings_week: count(value, previous) }, { bookings_week: previous }, hair).health;
    expect(bookings(41, 50)).toBe('good'); // −18%
    expect(bookings(40, 50)).toBe('watch'); // −20%
    expect(bookings(5, 50)).toBe('watch'); // −90%: a question to look at, not "act" on its own
    expect(bookings(2, 9)).toBe('good'); // nine bookings last week are too few to judge
  });

  it('takes the worst finding: a level well off the benchmark is Act whatever else fell', () => {
    const booking = assessHealth(
      'booking',
      { ...demoBooking.metrics, no_show_rate_30d: { value: 0.12, unit: 'ratio' } },
      demoBooking.samples,
      hair,
    );
    expect(booking.health).toBe('act');
    expect(booking.findings[0]).toMatchObject({ kind: 'level', metric: 'no_show_rate_30d', health: 'act' });
    expect(healthReason(booking.findings[0]!, 'Hair salon', 'en', english)).toBe(
      'no-show rate (30 days) at 12%, above the hair salon benchmark of 7% (the benchmark is an estimate)',
    );
  });

  it('words every fall rule in English and Italian', () => {
    for (const planet of PLANETS) {
      for (const metric of FALL_RULES[planet]) {
        const finding = { kind: 'fall', metric, health: 'watch', value: 8, previous: 10, changePct: -20, unit: 'count' } as const;
        expect(healthReason(finding, '', 'en', english)).toMatch(/ down 20% on .*\(8 against 10\)$/);
        expect(healthReason(finding, '', 'it', italian)).toMatch(/ in calo del 20% su.* \(8 contro 10\)$/);
      }
    }
  });
});
