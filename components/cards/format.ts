import type { StampedValue, Label } from '@/lib/cards';
import { formatPercent, type Locale, type Translate } from '@/lib/i18n';

/** A label in the reader's language. */
export const labelText = (label: Label, locale: Locale) => (typeof label === 'string' ? label : label[locale]);

export const formatMoney = (amount: number, currency: string, locale: Locale) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: Number.isInteger(amount) ? 0 : 2 }).format(amount);

export const formatNumber = (n: number, locale: Locale) => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(n);

/**
 * A stamped value for this reader. Dates (no time) are calendar days and read the same everywhere;
 * date-times are shown in `timeZone`, or the reader's own (the browser's) when absent.
 */
export function formatValue(value: StampedValue, locale: Locale, t: Translate, timeZone?: string): string {
  switch (value.t) {
    case 'text':
      return value.v;
    case 'label':
      return labelText(value.v, locale);
    case 'date':
      return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(value.v.slice(0, 10)));
    case 'datetime':
      return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(value.v));
    case 'number':
      return formatNumber(value.v, locale);
    case 'money':
      return formatMoney(value.v, value.currency, locale);
    case 'percent':
      return formatPercent(value.v, locale);
    case 'duration': {
      const h = Math.floor(value.v / 60);
      const m = Math.round(value.v % 60);
      return h === 0 ? t('cards.minutes', { m }) : m === 0 ? t('cards.hours', { h }) : t('cards.hoursMinutes', { h, m });
    }
    case 'bool':
      return value.v ? t('cards.yes') : t('cards.no');
  }
}
