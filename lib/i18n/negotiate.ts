import { DEFAULT_LOCALE, isLocale, type Locale } from './index';

/**
 * The interface language: an explicit choice (the cookie) wins, then the browser's
 * Accept-Language in order of preference, then English.
 */
export function pickLocale(cookieValue: string | undefined, acceptLanguage: string | null | undefined): Locale {
  if (isLocale(cookieValue)) return cookieValue;
  for (const tag of parseAcceptLanguage(acceptLanguage ?? '')) {
    const base = tag.split('-')[0]!;
    if (isLocale(base)) return base;
  }
  return DEFAULT_LOCALE;
}

/** Language tags ordered by their q-value (highest first); q=0 means "not this one". */
function parseAcceptLanguage(header: string): string[] {
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}
