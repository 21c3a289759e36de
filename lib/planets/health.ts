import type { BenchmarkKey, SectorBenchmark } from '@/lib/knowledge';
import { SECTORS, type SectorId } from '@/lib/workspaces';
import type { Health, Metric, Planet } from './types';

/**
 * A metric up to 25% worse than its target is worth watching; beyond that it needs acting on. "Worse
 * by 25%" is relative and symmetric: 8.75% no-shows against 7%, or 41.6% rebooking against 52%.
 */
export const WATCH_TOLERANCE = 1.25;

/** Below this many observations (visits, leads, recipients…) a rate says more about luck than health. */
export const MIN_SAMPLE = 10;

/** A share of open deals idle for two weeks above which the pipeline needs a look (not a sector figure). */
export const STALE_DEAL_SHARE_TARGET = 0.25;

export type Better = 'higher' | 'lower';

export interface Rule {
  metric: string;
  label: string;
  better: Better;
  /** The sector benchmark compared against, or a fixed target for hygiene rules. */
  benchmark: BenchmarkKey | { target: number; why: string };
}

export const RULES: Record<Planet, Rule[]> = {
  booking: [
    { metric: 'no_show_rate_30d', label: 'No-show rate (30 days)', better: 'lower', benchmark: 'noShowRate' },
    { metric: 'rebooking_rate_30d', label: 'Rebooking rate (30 days)', better: 'higher', benchmark: 'rebookingRate' },
  ],
  crm: [
    { metric: 'average_visit_gap_days', label: 'Average gap between visits', better: 'lower', benchmark: 'visitCadenceDays' },
    { metric: 'lead_conversion_90d', label: 'Lead conversion (90 days)', better: 'higher', benchmark: 'leadConversionRate' },
  ],
  sales: [
    { metric: 'win_rate_90d', label: 'Win rate (90 days)', better: 'higher', benchmark: 'dealWinRate' },
    {
      metric: 'stale_deal_share',
      label: 'Open deals idle for 14 days',
      better: 'lower',
      benchmark: { target: STALE_DEAL_SHARE_TARGET, why: 'a follow-up rule, not a sector figure' },
    },
  ],
  content: [{ metric: 'engagement_rate_30d', label: 'Engagement rate (30 days)', better: 'higher', benchmark: 'socialEngagementRate' }],
  marketing: [
    { metric: 'open_rate_90d', label: 'Email open rate (90 days)', better: 'higher', benchmark: 'emailOpenRate' },
    { metric: 'click_rate_90d', label: 'Email click rate (90 days)', better: 'higher', benchmark: 'emailClickRate' },
  ],
  web: [{ metric: 'booking_conversion_7d', label: 'Booking-page conversion (7 days)', better: 'higher', benchmark: 'bookingPageConversionRate' }],
};

/** How far `value` is from `target`, as good / watch / act. */
export function judge(value: number, target: number, better: Better): Health {
  // > 1 means worse than the target, by that factor.
  const worseBy = better === 'higher' ? (value === 0 ? Infinity : target / value) : value / target;
  if (worseBy <= 1) return 'good';
  return worseBy <= WATCH_TOLERANCE ? 'watch' : 'act';
}

const rank: Record<Health, number> = { good: 0, watch: 1, act: 2 };

// Up to two decimals, so a value just under a benchmark never prints the same as the benchmark.
const show = (value: number, unit: Metric['unit']) =>
  unit === 'ratio' ? `${Number((value * 100).toFixed(2))}%` : unit === 'days' ? `${Number(value.toFixed(1))} days` : String(value);

/**
 * Judges a planet's metrics against its rules. A metric with no value or too small a sample (`samples`
 * holds each rate's denominator) is not judged. The planet is as healthy as its worst judged metric.
 */
export function assessHealth(
  planet: Planet,
  metrics: Record<string, Metric>,
  samples: Record<string, number>,
  benchmark: { sector: SectorId; figures: SectorBenchmark },
): { health: Health; reasons: string[] } {
  const sectorLabel = SECTORS.find((s) => s.id === benchmark.sector)!.label.en.toLowerCase();
  const findings: Array<{ health: Health; reason: string }> = [];
  for (const rule of RULES[planet]) {
    const metric = metrics[rule.metric];
    if (!metric || metric.value === null || (samples[rule.metric] ?? 0) < MIN_SAMPLE) continue;
    const figure = typeof rule.benchmark === 'string' ? benchmark.figures[rule.benchmark] : null;
    const target = figure ? figure.value : (rule.benchmark as { target: number }).target;
    const health = judge(metric.value, target, rule.better);
    if (health === 'good') continue;
    const direction = rule.better === 'lower' ? 'above' : 'below';
    const against = figure
      ? `the ${sectorLabel} benchmark of ${show(target, metric.unit)}${'estimate' in figure ? ' (an estimate)' : ''}`
      : `the target of ${show(target, metric.unit)} (${(rule.benchmark as { why: string }).why})`;
    findings.push({
      health,
      reason: `${rule.label} is ${show(metric.value, metric.unit)}, ${health === 'act' ? 'well ' : ''}${direction} ${against}.`,
    });
  }
  findings.sort((a, b) => rank[b.health] - rank[a.health]);
  const health = findings.reduce<Health>((worst, f) => (rank[f.health] > rank[worst] ? f.health : worst), 'good');
  return { health, reasons: findings.map((f) => f.reason) };
}
