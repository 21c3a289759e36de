import { describe, expect, it } from 'vitest';
import { isStopRequest, stopConfirmation } from './stop';

describe('an opt-out', () => {
  it('is the whole message, in any case, with or without accents and punctuation', () => {
    for (const text of ['STOP', ' stop! ', 'Stop.', 'ARRESTA', 'annulla', 'Cancellami!!', 'non scrivermi più', 'NON SCRIVERMI PIU', 'Non-scrivermi più.', 'unsubscribe', 'basta messaggi']) {
      expect(isStopRequest(text), text).toBe(true);
    }
  });

  it('is not a sentence that merely contains the word', () => {
    for (const text of ['stop by at five?', 'Can I cancel my booking?', 'non scrivermi più tardi delle 8', 'stoppato', '']) {
      expect(isStopRequest(text), text).toBe(false);
    }
  });

  it('is confirmed in the workspace’s language', () => {
    expect(stopConfirmation('en', 'Studio Luce')).toBe("You won't get more messages from Studio Luce. If you change your mind, tell us in person or by phone.");
    expect(stopConfirmation('it', 'Studio Luce')).toMatch(/^Non riceverai più messaggi da Studio Luce\./);
  });
});
