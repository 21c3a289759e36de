import { describe, expect, it } from 'vitest';
import { asciiSlug } from '.';

describe('asciiSlug', () => {
  it('drops accents, joins the rest with the separator, trims it, and falls back when nothing is left', () => {
    expect(asciiSlug('Zoë  Café!', { separator: '_', maxLength: 40, fallback: 'agent' })).toBe('zoe_cafe');
    expect(asciiSlug('  Piano – Q3 / 2026 ', { separator: '-', maxLength: 60, fallback: 'artifact' })).toBe('piano-q3-2026');
    expect(asciiSlug('日本語', { separator: '-', maxLength: 60, fallback: 'artifact' })).toBe('artifact');
  });

  it('never ends on a separator when it cuts at the length', () => {
    expect(asciiSlug('abcd efgh', { separator: '-', maxLength: 5, fallback: 'x' })).toBe('abcd');
    expect(asciiSlug('abcd efgh', { separator: '-', maxLength: 6, fallback: 'x' })).toBe('abcd-e');
  });
});
