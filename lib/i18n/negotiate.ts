import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, type Locale } from './index';

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

/**
 * The language to answer a request in, negotiated as the pages do. `people` (the app's own API, called
 * by its pages) follows the locale cookie, then Accept-Language; `programs` (the topic-queue and agent
 * APIs) answer in English unless the client asks for another language by Accept-Language.
 */
export function requestLocale(req: Request, readers: 'people' | 'programs' = 'people'): Locale {
  const cookie = readers === 'people' ? cookieValue(req.headers.get('cookie'), LOCALE_COOKIE) : undefined;
  return pickLocale(cookie, req.headers.get('accept-language'));
}

function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, value] = part.trim().split('=');
    if (key === name) return value;
  }
  return undefined;
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
