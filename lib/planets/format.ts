import type { Locale, MessageKey, Translate } from '@/lib/i18n';
import type { Finding } from './health';
import { money } from './money';
import type { Metric } from './types';

/** How metrics read, for the planet pages, the Home and agents' answers: pure, no React. */

/** A metric's name by its id (`no_show_rate_30d` → "No-show rate (30 days)"). */
export const metricLabel = (id: string, t: Translate) => t(`metric.${id}` as MessageKey);


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

const lowerFirst = (text: string, locale: Locale) => text.charAt(0).toLocaleLowerCase(locale) + text.slice(1);

/**
 * Why a planet is not good, one finding in the reader's language: "bookings down 29% on last week (41
 * against 58)", "no-show rate (30 days) at 9%, above the hair salon benchmark of 7% (an estimate)".
 * `sector` is the sector whose benchmark was used, by its name in that language.
 */
export function healthReason(finding: Finding, sector: string, locale: Locale, t: Translate): string {
  const value = (v: number) => metricValue({ value: v, unit: finding.unit }, locale, t);
  if (finding.kind === 'fall') {
    const pct = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(Math.abs(finding.changePct) / 100);
    return t(`healthReason.fall.${finding.metric}` as MessageKey, { pct, value: value(finding.value), previous: value(finding.previous) });
  }
  const vars = { metric: lowerFirst(metricLabel(finding.metric, t), locale), value: value(finding.value), target: value(finding.target), sector: sector.toLocaleLowerCase(locale) };
  if (finding.against === 'rule') return t('healthReason.aboveTarget', vars);
  const reason = t(finding.better === 'higher' ? 'healthReason.below' : 'healthReason.above', vars);
  return finding.estimate ? t('healthReason.estimate', { reason }) : reason;
}

/** A finding in a few words, for the Home's small planet tiles: "Bookings this week −29%", "No-show rate (30 days) 12%". */
export function healthReasonShort(finding: Finding, locale: Locale, t: Translate): string {
  const label = metricLabel(finding.metric, t);
  if (finding.kind === 'fall') {
    return `${label} ${new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0, signDisplay: 'always' }).format(finding.changePct / 100)}`;
  }
  return `${label} ${metricValue({ value: finding.value, unit: finding.unit }, locale, t)}`;
}
