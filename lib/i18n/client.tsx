'use client';

import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { createTranslator, type Dictionary, type Locale, type Translate } from './index';

interface I18nValue {
  locale: Locale;
  dict: Partial<Dictionary>;
  t: Translate;
}

const I18nContext = createContext<I18nValue | null>(null);

/**
 * Receives the messages a layout sends its client components (lib/i18n/client-messages.ts). A provider
 * inside another adds its messages to the outer one's, so each layout sends only what its own part of the
 * app draws in the browser.
 */
export function I18nProvider({ locale, dict, children }: { locale: Locale; dict: Partial<Dictionary>; children: ReactNode }) {
  const outer = useContext(I18nContext);
  const value = useMemo(() => {
    const merged = outer ? { ...outer.dict, ...dict } : dict;
    return { locale, dict: merged, t: createTranslator(merged, locale) };
  }, [locale, dict, outer]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n must be used inside <I18nProvider>.');
  return value;
}
