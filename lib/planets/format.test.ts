import { describe, expect, it } from 'vitest';
import { changeText, money } from './format';

describe('changeText', () => {
  it('signs a change and writes it in the reader’s language', () => {
    expect(changeText(-31.2, 'en')).toBe('-31.2%');
    expect(changeText(12.5, 'en')).toBe('+12.5%');
    expect(changeText(-31.2, 'it')).toBe('-31,2%');
    expect(changeText(0, 'it')).toBe('0%');
  });
});

describe('money', () => {
  it('drops the cents only when there are none', () => {
    expect(money(163000, 'en')).toBe('€1,630');
    expect(money(3898, 'it')).toBe('38,98\u00a0€');
  });
});
