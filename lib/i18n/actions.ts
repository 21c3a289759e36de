'use server';

import { cookies } from 'next/headers';
import { isLocale, LOCALE_COOKIE } from './index';

const ONE_YEAR = 60 * 60 * 24 * 365;

/**
 * Remembers the interface language chosen in Settings. Setting a cookie in a server action
 * re-renders the current page, so the new language shows without a reload.
 */
export async function setLocaleAction(formData: FormData): Promise<void> {
  const locale = formData.get('locale');
  if (!isLocale(locale)) return;
  (await cookies()).set(LOCALE_COOKIE, locale, { path: '/', maxAge: ONE_YEAR, sameSite: 'lax' });
}
