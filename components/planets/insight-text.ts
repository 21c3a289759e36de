import { plural, type Locale, type Translate } from '@/lib/i18n';
import { metricLabel, metricValue } from '@/lib/planets';
import type { MetricView } from '@/components/home/types';
import type { Wire } from '@/lib/api';
import type { InsightView } from '@/lib/insights';

/** An insight as the API sends it. */
export type InsightItem = Wire<InsightView>;

const COUNTED_KINDS = ['reminders_due', 'freed_slots', 'lapsed_customers', 'stale_deals'] as const;
const KINDS = ['nothing_scheduled', 'no_recent_campaign'] as const;

/**
 * An insight in the reader's language: an agent's carries its own title and body (written in the
 * workspace's language); a rule-based one is worded here from its kind and numbers.
 */
export function insightText(i: InsightItem, locale: Locale, t: Translate): { title: string; body: string } {
  if (i.source === 'agent') return { title: i.title, body: i.body };
  if (i.kind.startsWith('metric.')) {
    const p = i.params as { metric: string; value: number; target: number; unit: MetricView['unit']; better: 'higher' | 'lower' };
    const metric = metricLabel(p.metric, t);
    const low = p.value < p.target;
    return {
      title: t(low ? 'insight.metricLow' : 'insight.metricHigh', {
        metric,
        value: metricValue({ value: p.value, unit: p.unit }, locale, t),
        target: metricValue({ value: p.target, unit: p.unit }, locale, t),
      }),
      body: '',
    };
  }
  const counted = COUNTED_KINDS.find((k) => k === i.kind);
  if (counted) return { title: plural(t, locale, `insight.${counted}`, Number(i.params.count ?? 0)), body: i.body };
  const kind = KINDS.find((k) => k === i.kind);
  return { title: kind ? t(`insight.${kind}`) : i.title, body: i.body };
}
