import { renderToStaticMarkup } from 'react-dom/server';
import { jsx } from 'react/jsx-runtime';
import { describe, expect, it as test } from 'vitest';
import { PlanetOrbit } from '@/components/planets/planet-orbit';
import { createTranslator, type Locale } from '@/lib/i18n';
import { en } from '@/lib/i18n/messages/en';
import { it } from '@/lib/i18n/messages/it';
import { DoneForYou } from './done-for-you';
import { decisionState, describeDecision, trendText } from './format';
import type { DecisionView, PlanetSummaryView } from './types';

/** What the Home's server components write, as a phone user reads it, in both languages. */
const speak = (locale: Locale) => ({ locale, t: createTranslator(locale === 'it' ? it : en, locale) });
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

const decision = (over: Partial<DecisionView>): DecisionView => ({
  id: '00000000-0000-4000-8000-000000000001',
  planet: 'booking',
  actionType: 'booking_reminder',
  tier: 'auto',
  status: 'executed',
  argsHash: 'a'.repeat(64),
  channel: 'sms',
  to: '+39 333 000 0000',
  message: 'Ciao Marta…',
  details: { customerName: 'Marta Neri', serviceName: 'Piega', startsAt: '2026-12-01T09:00:00Z' },
  trigger: 'cron:analyze_planet_data',
  expiresAt: '2026-12-01T07:00:00Z',
  createdAt: '2026-11-30T06:00:00Z',
  decidedAt: null,
  executedAt: '2026-11-30T06:00:00Z',
  error: null,
  undoable: true,
  delivery: { status: 'queued', sendAfter: '2026-11-30T07:00:00Z', sentAt: null, deliveredAt: null, error: null, nextAttemptAt: null, connected: false },
  ...over,
});

describe('a message’s state', () => {
  test('reads "ready — connect email or SMS to send" until a provider has it, in Done for you too', () => {
    for (const locale of ['en', 'it'] as const) {
      const { t } = speak(locale);
      const groups = [{ actionType: 'booking_reminder' as const, planet: 'booking' as const, count: 4, items: [decision({})] }];
      const html = text(
        renderToStaticMarkup(
          jsx(DoneForYou, { groups, routineRuns: { count: 0, items: [] }, workspaceId: 'w', timeZone: 'Europe/Rome', canDecide: false, locale, t }),
        ),
      );
      expect(html).toContain(locale === 'en' ? 'Prepared 4 reminders' : 'Preparati 4 promemoria');
      expect(html).toContain(t('delivery.queued'));
      expect(html).toContain(t('done.notConnected'));
      expect(html).not.toMatch(locale === 'en' ? /\bsent\b/i : /\binviat[oi]\b/i);
    }
    const { t } = speak('en');
    expect(t('delivery.queued')).toBe('Ready — connect email or SMS to send');
    expect(decisionState(decision({}), 'en', 'Europe/Rome', t)).toBe('Ready — connect email or SMS to send');
  });

  test('says sent and delivered only with the moment a provider reported, and never "Done" for a message that did not leave', () => {
    const { t } = speak('en');
    const at = (status: 'sent' | 'delivered' | 'cancelled' | 'failed' | 'sending') =>
      decisionState(decision({ delivery: { status, sendAfter: '2026-11-30T07:00:00Z', sentAt: '2026-11-30T07:00:05Z', deliveredAt: '2026-11-30T07:00:09Z', error: null, nextAttemptAt: null, connected: true } }), 'en', 'Europe/Rome', t);
    expect(at('sent')).toMatch(/^Sent /);
    expect(at('delivered')).toMatch(/^Delivered /);
    expect(at('sending')).toBe('Sending…');
    expect(at('cancelled')).toBe('Not sent');
    expect(at('failed')).toBe('Could not be sent');
    expect(decisionState(decision({ status: 'proposed', delivery: null }), 'en', 'Europe/Rome', t)).toBe('Waiting');
  });
});

describe('card titles', () => {
  test('name the customer once, however the deal is titled', () => {
    const followUp = (dealTitle: string, locale: Locale) =>
      describeDecision(
        { actionType: 'deal_follow_up', details: { customerName: 'Giorgia Lombardi', dealTitle, valueCents: 120000, idleDays: 20 } },
        locale,
        'Europe/Rome',
        speak(locale).t,
      ).what;
    expect(followUp('Pacchetto sposa – Giorgia Lombardi', 'en')).toBe('Follow up “Pacchetto sposa” with Giorgia Lombardi');
    expect(followUp('Pacchetto sposa – Giorgia Lombardi', 'it')).toBe('Sollecita Giorgia Lombardi su “Pacchetto sposa”');
    expect(followUp('Giorgia Lombardi', 'en')).toBe('Follow up the deal with Giorgia Lombardi');
    expect(followUp('Giorgia Lombardi', 'it')).toBe('Sollecita Giorgia Lombardi sulla trattativa');
    expect(followUp('Abbonamento 10 pieghe', 'en')).toBe('Follow up “Abbonamento 10 pieghe” with Giorgia Lombardi');
  });

  test('the waitlist offer’s why neither assumes the customer is a woman nor leaves "dal 8" unelided', () => {
    const why = describeDecision(
      { actionType: 'waitlist_offer', details: { customerName: 'Marco Neri', serviceName: 'Taglio uomo', startsAt: '2026-12-09T09:00:00Z', waitingSince: '2026-12-08T09:00:00Z' } },
      'it',
      'Europe/Rome',
      speak('it').t,
    ).why;
    expect(why).toBe('Una disdetta ha liberato il posto; Marco Neri è in lista d’attesa dall\'8 dicembre e l’orario è compatibile.');
  });
});

describe('planets on the Home, in Italian', () => {
  test('one new insight is "1 nuova osservazione", and a fall of 8% is "giù dell’8%"', () => {
    const { t } = speak('it');
    expect(trendText('down', -8, t)).toBe("giù dell'8%");
    expect(trendText('up', 11.4, t)).toBe("su dell'11%");
    expect(trendText('down', -18, t)).toBe('giù del 18%');
    const planet = (newInsights: number): PlanetSummaryView => ({
      planet: 'booking',
      health: 'good',
      trend: 'down',
      changePct: -8,
      headline: { metric: 'bookings_week', value: 41, unit: 'count' },
      reason: null,
      sector: 'hair_salon',
      autonomy: 'propose',
      paused: false,
      newInsights,
      hasData: true,
    });
    const html = (n: number) => text(renderToStaticMarkup(jsx(PlanetOrbit, { planets: [planet(n)], workspaceId: 'w', locale: 'it', t })));
    expect(html(1)).toContain('1 nuova osservazione');
    expect(html(3)).toContain('3 nuove osservazioni');
    expect(html(1)).toContain("giù dell'8%");
  });
});
