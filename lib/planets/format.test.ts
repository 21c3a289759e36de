import { describe, expect, it } from 'vitest';
import { money } from './money';

describe('money', () => {
  it('drops the cents only when there are none', () => {
    expect(money(163000, 'en')).toBe('€1,630');
    expect(money(3898, 'it')).toBe('38,98\u00a0€');
  });
});
