import type { Locale, MessageKey, Translate } from '@/lib/i18n';
import type { Metric } from './types';

/** How metrics read, for the planet pages, the Home and agents' answers: pure, no React. */

/** A metric's name by its id (`no_show_rate_30d` → "No-show rate (30 days)"). */
export const metricLabel = (id: string, t: Translate) => t(`metric.${id}` as MessageKey);

export function money(cents: number, locale: Locale): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', maximumFractionDigits: cents % 100 === 0 ? 0 : 2 }).format(cents / 100);
}

const percent = (ratio: number, locale: Locale) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(ratio);

export function metricValue(metric: Pick<Metric, 'value' | 'unit'>, locale: Locale, t: Translate): string {
  if (metric.value === null) return '—';
  switch (metric.unit) {
    case 'ratio':
      return percent(metric.value, locale);
    case 'cents':
      return money(metric.value, locale);
    case 'days':
      return t('metric.days', { value: new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(metric.value) });
    default:
      return new Intl.NumberFormat(locale).format(metric.value);
  }
}
