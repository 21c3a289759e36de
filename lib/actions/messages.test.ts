import { describe, expect, it } from 'vitest';
import { composeMessage } from './messages';
import type { ActionWorkspace } from './types';

const aurora = (locale: 'en' | 'it'): ActionWorkspace => ({ id: 'w-1', name: 'Studio Aurora', timeZone: 'Europe/Rome', locale });

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
});
