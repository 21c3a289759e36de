import { describe, expect, it } from 'vitest';
import { composeMessage, dealTopic } from './messages';
import type { ActionWorkspace } from './types';

const aurora = (locale: 'en' | 'it'): ActionWorkspace => ({ id: 'w-1', name: 'Studio Aurora', timeZone: 'Europe/Rome', locale });
const LOCALES = ['it', 'en'] as const;

/** What no message may contain: a word twice in a row, a placeholder left over, a blank filled with nothing. */
function expectReadable(text: string) {
  expect(text).not.toMatch(/\b(\p{L}+)\s+\1\b/iu);
  expect(text).not.toMatch(/undefined|null|\{\w+\}|""|“”|\s[,.?!:]|\s{2,}/);
}

describe('composeMessage', () => {
  it('writes a win-back that reads right whatever the service’s gender in Italian', () => {
    // "il prossimo piega" was wrong for every feminine service: the sentence now agrees with "appuntamento".
    for (const service of ['piega', 'taglio uomo', 'colorazione']) {
      expect(composeMessage(aurora('it'), 'winBack', { first: 'Arianna', service }).body).toBe(
        `Ciao Arianna, è da un po' che non ti vediamo da Studio Aurora! Ti fissiamo il prossimo appuntamento per ${service}? Rispondi a questo messaggio e ti troviamo un posto.`,
      );
    }
    expect(composeMessage(aurora('en'), 'winBack', { first: 'Arianna', service: 'blow-dry' })).toEqual({
      body: "Hi Arianna, we haven't seen you at Studio Aurora for a while! Shall we book your next blow-dry? Reply to this message and we'll find you a slot.",
      subject: 'We miss you at Studio Aurora',
    });
  });

  it('writes a win-back without a known service as an invitation to the next appointment, never "appointment for appointment"', () => {
    expect(composeMessage(aurora('it'), 'winBack', { first: 'Giorgia', service: null }).body).toBe(
      "Ciao Giorgia, è da un po' che non ti vediamo da Studio Aurora! Ti fissiamo il prossimo appuntamento? Rispondi a questo messaggio e ti troviamo un posto.",
    );
    expect(composeMessage(aurora('en'), 'winBack', { first: 'Giorgia', service: null }).body).toBe(
      "Hi Giorgia, we haven't seen you at Studio Aurora for a while! Shall we book your next appointment? Reply to this message and we'll find you a slot.",
    );
  });

  it('writes a deal follow-up about the deal’s topic, and without one when the title is only the customer’s name', () => {
    const title = 'Pacchetto sposa – Giorgia Lombardi';
    const it = composeMessage(aurora('it'), 'followUp', { first: 'Giorgia', deal: dealTopic(title, 'Giorgia Lombardi') });
    expect(it).toEqual({
      body: 'Ciao Giorgia, ti riscriviamo per "Pacchetto sposa": hai avuto modo di pensarci? Per qualsiasi domanda siamo qui. A presto, Studio Aurora',
      subject: 'Pacchetto sposa',
    });
    expect(composeMessage(aurora('en'), 'followUp', { first: 'Giorgia', deal: dealTopic('Giorgia Lombardi', 'Giorgia Lombardi') })).toEqual({
      body: 'Hi Giorgia, following up on what we discussed: have you had a chance to think about it? Happy to answer any questions. Best, Studio Aurora',
      subject: 'Following up, from Studio Aurora',
    });
  });

  it('reads well in every combination of kind, language and what is known', () => {
    const cases = LOCALES.flatMap((locale) => [
      ...['Piega', 'Taglio donna', 'Balayage'].flatMap((service) => [
        composeMessage(aurora(locale), 'reminder', { first: 'Marta', when: 'martedì 1 dicembre alle 10:00', service }),
        composeMessage(aurora(locale), 'waitlist', { first: 'Marta', when: 'martedì 1 dicembre alle 10:00', service }),
      ]),
      ...[null, 'piega', 'trattamento ristrutturante'].map((service) => composeMessage(aurora(locale), 'winBack', { first: 'Marta', service })),
      ...['Pacchetto sposa – Marta Neri', 'Marta Neri', 'Abbonamento 10 pieghe (Marta Neri)', 'Convenzione aziendale – Acme'].map((title) =>
        composeMessage(aurora(locale), 'followUp', { first: 'Marta', deal: dealTopic(title, 'Marta Neri') }),
      ),
    ]);
    for (const { body, subject } of cases) {
      expectReadable(body);
      expectReadable(subject);
      // Written to Marta, a message names her once and never by her full name.
      expect(body.match(/Marta/g)).toHaveLength(1);
      expect(`${body} ${subject}`).not.toContain('Neri');
      expect(subject).not.toBe('');
    }
    expect(cases).toHaveLength(2 * (6 + 3 + 4));
  });
});

describe('dealTopic', () => {
  it('takes the customer’s name and what joined it out of a deal’s title', () => {
    expect(dealTopic('Pacchetto sposa – Giorgia Lombardi', 'Giorgia Lombardi')).toBe('Pacchetto sposa');
    expect(dealTopic('giorgia lombardi: colore', 'Giorgia Lombardi')).toBe('colore');
    expect(dealTopic('Abbonamento (Giorgia  Lombardi)', 'Giorgia Lombardi')).toBe('Abbonamento');
    expect(dealTopic('Sposa – Giorgia Lombardi – giugno', 'Giorgia Lombardi')).toBe('Sposa – giugno');
    expect(dealTopic('Giorgia Lombardi', 'Giorgia Lombardi')).toBeNull();
    expect(dealTopic('Taglio (corto)', 'Giorgia Lombardi')).toBe('Taglio (corto)');
    expect(dealTopic('Convenzione aziendale – Acme', '')).toBe('Convenzione aziendale – Acme');
  });
});
