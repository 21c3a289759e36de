import { describe, expect, it } from 'vitest';
import { pickLocale } from './negotiate';

describe('pickLocale', () => {
  it('prefers the cookie when it names a supported language', () => {
    expect(pickLocale('it', 'en-US,en;q=0.9')).toBe('it');
    expect(pickLocale('fr', 'it-IT')).toBe('it');
  });

  it('follows Accept-Language by q-value, matching on the base language', () => {
    expect(pickLocale(undefined, 'it-IT,it;q=0.9,en;q=0.8')).toBe('it');
    expect(pickLocale(undefined, 'fr-FR;q=0.9,en;q=0.5,it;q=0.7')).toBe('it');
    expect(pickLocale(undefined, 'de,en-GB;q=0.3')).toBe('en');
  });

  it('skips languages marked q=0 and falls back to English', () => {
    expect(pickLocale(undefined, 'it;q=0,de')).toBe('en');
    expect(pickLocale(undefined, '')).toBe('en');
    expect(pickLocale(undefined, null)).toBe('en');
  });
});
