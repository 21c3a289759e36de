import { cookies, headers } from 'next/headers';
import { cache } from 'react';
import { createTranslator, LOCALE_COOKIE, type Dictionary, type Locale, type Translate } from './index';
import { pickLocale } from './negotiate';

/** The interface language of this request (cookie, then Accept-Language, then English). */
export const getLocale = cache(async (): Promise<Locale> => {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  return pickLocale(cookieStore.get(LOCALE_COOKIE)?.value, headerList.get('accept-language'));
});

/** Only the requested language is loaded, so a page never carries both. */
export async function getDictionary(locale: Locale): Promise<Dictionary> {
  return locale === 'it' ? (await import('./messages/it')).it : (await import('./messages/en')).en;
}

export interface I18n {
  locale: Locale;
  dict: Dictionary;
  t: Translate;
}

/** Everything a server component needs to speak the user's language. */
export const getI18n = cache(async (): Promise<I18n> => {
  const locale = await getLocale();
  const dict = await getDictionary(locale);
  return { locale, dict, t: createTranslator(dict, locale) };
});
