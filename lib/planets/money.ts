import type { Locale } from '@/lib/i18n';

/** Money in the workspace's currency (EUR for now), whole euros without decimals. Pure: the browser uses it too. */
export function money(cents: number, locale: Locale): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', maximumFractionDigits: cents % 100 === 0 ? 0 : 2 }).format(cents / 100);
}
