import type { ActionType } from '@/lib/actions';
import type { Planet, PlanetMetrics } from '@/lib/planets';
import type { Candidates } from './candidates';

export const SEVERITIES = ['info', 'watch', 'act'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** An insight before it is stored. Rule-based ones carry `kind` + `params` and no text: the UI words them. */
export interface InsightDraft {
  kind: string;
  severity: Severity;
  title?: string;
  body?: string;
  params: Record<string, unknown>;
  /** The actions this insight suggests, proposed (or done) with it. */
  actions: Array<{ type: ActionType; input: Record<string, unknown> }>;
}

/** Win-back and follow-up suggestions per run: the actions' own daily caps apply on top. */
const MAX_SUGGESTED = 5;

/**
 * The analysis without a model: the same kinds of insight an agent produces, from the planet's
 * metrics (every judged metric that is not good, against its benchmark) and from the concrete work
 * its actions can do today (reminders due, freed slots with a waiting customer, lapsed customers,
 * stale deals), each with the actions it suggests.
 */
export function ruleBasedInsights(planet: Planet, metrics: PlanetMetrics, candidates: Candidates): InsightDraft[] {
  const drafts: InsightDraft[] = [];
  // Each level finding of the health rules (a metric against its benchmark) is an insight of its own.
  for (const finding of metrics.findings) {
    if (finding.kind !== 'level') continue;
    drafts.push({
      kind: `metric.${finding.metric}`,
      severity: finding.health,
      params: { metric: finding.metric, value: finding.value, target: finding.target, unit: finding.unit, better: finding.better, sectorBenchmark: finding.against === 'sector' },
      actions: [],
    });
  }

  const m = metrics.metrics;
  if (candidates.remindersDue.length) {
    drafts.push({
      kind: 'reminders_due',
      severity: 'info',
      params: { count: candidates.remindersDue.length },
      actions: candidates.remindersDue.map((c) => ({ type: 'booking_reminder', input: { appointmentId: c.appointmentId } })),
    });
  }
  if (candidates.freedSlots.length) {
    drafts.push({
      kind: 'freed_slots',
      severity: 'watch',
      params: { count: candidates.freedSlots.length },
      actions: candidates.freedSlots.map((c) => ({ type: 'waitlist_offer', input: { appointmentId: c.appointmentId } })),
    });
  }
  const lapsed = m.lapsed_customers?.value ?? 0;
  if (lapsed > 0) {
    const eligible = candidates.lapsed.filter((c) => c.eligible).slice(0, MAX_SUGGESTED);
    drafts.push({
      kind: 'lapsed_customers',
      severity: lapsed >= 10 ? 'act' : 'watch',
      params: { count: lapsed, suggested: eligible.length },
      actions: eligible.map((c) => ({ type: 'win_back', input: { customerId: c.customerId } })),
    });
  }
  const stale = m.stale_deals?.value ?? 0;
  if (stale > 0) {
    const withCustomer = candidates.staleDeals.filter((d) => d.hasCustomer).slice(0, MAX_SUGGESTED);
    drafts.push({
      kind: 'stale_deals',
      severity: 'watch',
      params: { count: stale, valueCents: candidates.staleDeals.reduce((sum, d) => sum + d.valueCents, 0) },
      actions: withCustomer.map((d) => ({ type: 'deal_follow_up', input: { dealId: d.dealId } })),
    });
  }
  if (planet === 'content' && m.posts_scheduled_7d?.value === 0) {
    drafts.push({ kind: 'nothing_scheduled', severity: 'watch', params: {}, actions: [] });
  }
  if (planet === 'marketing' && m.campaigns_sent_30d?.value === 0) {
    drafts.push({ kind: 'no_recent_campaign', severity: 'info', params: {}, actions: [] });
  }
  return drafts;
}

/** A planet with nothing to measure (no bookings, customers, deals, posts…) is not analysed. */
export function hasData(metrics: PlanetMetrics): boolean {
  return Object.values(metrics.metrics).some((metric) => metric.value !== null && metric.value !== 0);
}
