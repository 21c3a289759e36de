import type { en } from './messages/en';

export { CLIENT_MESSAGES, type ClientMessagesSegment } from './client-messages';
export { formatDateTime, formatMoment, formatPercent, formatRelative } from './format';
export { requestLocale } from './negotiate';

/** The languages the interface speaks. The first one is the fallback. */
export const LOCALES = ['en', 'it'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** The cookie that remembers an explicit choice made in Settings; it wins over the browser. */
export const LOCALE_COOKIE = 'mv_locale';

export type MessageKey = keyof typeof en;
/** Every language has exactly the English keys; TypeScript rejects a missing or extra one. */
export type Dictionary = Record<MessageKey, string>;
export type Vars = Record<string, string | number>;
export type Translate = (key: MessageKey, vars?: Vars) => string;
/** The first part of a key, such as chat in chat.send: the unit in which messages are sent to the browser. */
export type Namespace = MessageKey extends `${infer N}.${string}` ? N : never;

/** The messages among `Keys` that have both a `.one` and an `.other` key, named without the suffix. */
export type PluralBaseOf<Keys extends string> = {
  [K in Keys]: K extends `${infer Base}.one` ? (`${Base}.other` extends Keys ? Base : never) : never;
}[Keys];
/** What `plural` takes: a base missing either form does not compile. */
export type PluralBase = PluralBaseOf<MessageKey>;

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * Binds a dictionary of `locale` to a `t(key, vars)` function. `{name}` placeholders are replaced by
 * `vars.name`; a placeholder without a value stays visible, so a mistake shows up on screen instead of
 * vanishing. In Italian a filled-in number is elided into the preposition before it ("giù dell'8%",
 * "dall'11 dicembre"), which no template can spell for every number.
 */
export function createTranslator(dict: Partial<Dictionary>, locale: Locale): Translate {
  return (key, vars) => {
    const template = dict[key] ?? key;
    if (!vars) return template;
    const text = template.replace(/\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
    return locale === 'it' ? elideItalian(text) : text;
  };
}

/**
 * "del 8" → "dell'8", "al 11" → "all'11": del, dal, al, nel and sul elide before a number whose Italian
 * name begins with a vowel (uno, otto, undici, ottanta…, "un milione"); "del 18%", "dal 1000" stay.
 */
export function elideItalian(text: string): string {
  return text.replace(/(^|[^\p{L}'’])(del|dal|al|nel|sul) (\d{1,3}(?:\.\d{3})+|\d+)(?!\d)/gu, (match, before: string, preposition: string, number: string) =>
    readsWithVowel(Number(number.replaceAll('.', ''))) ? `${before}${preposition}l'${number}` : match,
  );
}

/** Whether the Italian name of a whole number begins with a vowel. */
function readsWithVowel(n: number): boolean {
  if (n >= 1_000_000) return readsWithVowel(Math.floor(n / 1_000_000));
  if (n >= 1000) return n >= 2000 && readsWithVowel(Math.floor(n / 1000));
  if (n >= 100) return n >= 200 && readsWithVowel(Math.floor(n / 100));
  return n === 1 || n === 8 || n === 11 || (n >= 80 && n <= 89);
}

/** The messages of `dict` under `namespaces`, all that a layout sends its client components. */
export function pickNamespaces(dict: Dictionary, namespaces: readonly Namespace[]): Partial<Dictionary> {
  const wanted = new Set<string>(namespaces);
  return Object.fromEntries(Object.entries(dict).filter(([key]) => wanted.has(key.slice(0, key.indexOf('.'))))) as Partial<Dictionary>;
}

/**
 * Made on first use, not when the module loads: the first Intl object a page makes loads the browser's
 * locale data, 30–80 ms of main thread on a phone, and every page imports this module while it starts.
 */
const pluralRules = new Map<Locale, Intl.PluralRules>();
const numberFormats = new Map<Locale, Intl.NumberFormat>();
function cached<T>(cache: Map<Locale, T>, locale: Locale, make: (locale: Locale) => T): T {
  let value = cache.get(locale);
  if (!value) cache.set(locale, (value = make(locale)));
  return value;
}

/**
 * `base.one` or `base.other` as the locale's plural rule picks for `count`, with `{count}` filled in
 * as the locale writes numbers ("1,250" / "1.250").
 * The rule, not `count === 1`, decides, so a language whose "one" covers more numbers reads right;
 * English and Italian have no other forms, so everything that is not "one" takes `.other`.
 */
export function plural(t: Translate, locale: Locale, base: PluralBase, count: number): string {
  const form = cached(pluralRules, locale, (l) => new Intl.PluralRules(l)).select(count) === 'one' ? 'one' : 'other';
  return t(`${base}.${form}`, { count: cached(numberFormats, locale, (l) => new Intl.NumberFormat(l)).format(count) });
}
