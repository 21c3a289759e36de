import type { BenchmarkKey, LoadedBenchmark } from '@/lib/knowledge';
import type { Health, Metric, Planet } from './types';

/**
 * A planet's health, from two kinds of rule over its metrics (docs/planets-and-autonomy.md, "Health"):
 *
 * - level: a metric against the sector benchmark (or a fixed target). Within NEAR_BENCHMARK of it is on
 *   it — the figures are averages, most of them estimates, and a rate over a few dozen visits moves
 *   that much by chance; up to WATCH_TOLERANCE worse is "watch"; beyond that "act".
 * - fall: a count the business wants more of, down FALL_WATCH_PCT or more on its previous period, is
 *   "watch" — a question to look at, never "act" on its own: one slow week is not a problem yet, and
 *   a week still being booked reads low until its days are filled.
 *
 * A metric getting better (by more than STEADY_PCT in its good direction) is never the reason for
 * "watch" or "act": a rising number of a good-direction metric reads as good news on every screen.
 * Nothing is judged on fewer than MIN_SAMPLE observations. The planet is as healthy as its worst finding.
 */

/** Within 10% of the benchmark counts as on it. */
export const NEAR_BENCHMARK = 1.1;
/** Up to 25% worse than the benchmark is worth watching; beyond that it needs acting on. */
export const WATCH_TOLERANCE = 1.25;
/** Below this many observations (visits, leads, recipients…) a rate or a change says more about luck than health. */
export const MIN_SAMPLE = 10;
/** A fall of this many percent on the previous period is worth a look. */
export const FALL_WATCH_PCT = 20;
/** Changes within ±5% read as steady (the Home's trend ring uses the same band). */
export const STEADY_PCT = 5;
/** A share of open deals idle for two weeks above which the pipeline needs a look (not a sector figure). */
export const STALE_DEAL_SHARE_TARGET = 0.25;

export type Better = 'higher' | 'lower';

export interface Rule {
  metric: string;
  better: Better;
  /** The sector benchmark compared against, or a fixed target for hygiene rules. */
  benchmark: BenchmarkKey | { target: number };
}

/** Level rules: each planet's metrics that have a benchmark or a target. */
export const RULES: Record<Planet, Rule[]> = {
  booking: [
    { metric: 'no_show_rate_30d', better: 'lower', benchmark: 'noShowRate' },
    { metric: 'rebooking_rate_30d', better: 'higher', benchmark: 'rebookingRate' },
  ],
  crm: [
    { metric: 'average_visit_gap_days', better: 'lower', benchmark: 'visitCadenceDays' },
    { metric: 'lead_conversion_90d', better: 'higher', benchmark: 'leadConversionRate' },
  ],
  sales: [
    { metric: 'win_rate_90d', better: 'higher', benchmark: 'dealWinRate' },
    { metric: 'stale_deal_share', better: 'lower', benchmark: { target: STALE_DEAL_SHARE_TARGET } },
  ],
  content: [{ metric: 'engagement_rate_30d', better: 'higher', benchmark: 'socialEngagementRate' }],
  marketing: [
    { metric: 'open_rate_90d', better: 'higher', benchmark: 'emailOpenRate' },
    { metric: 'click_rate_90d', better: 'higher', benchmark: 'emailClickRate' },
  ],
  web: [{ metric: 'booking_conversion_7d', better: 'higher', benchmark: 'bookingPageConversionRate' }],
};

/**
 * Fall rules: the counts (and occupancy) a business wants more of, judged against their previous
 * period. Money is left out (a few large tickets swing it; the bookings behind it are judged), and so
 * are campaigns sent (how many to send is the owner's choice, not a sign of health).
 */
export const FALL_RULES: Record<Planet, string[]> = {
  booking: ['bookings_week', 'occupancy_week'],
  crm: ['new_customers_30d', 'leads_7d'],
  sales: [],
  content: ['posts_published_30d'],
  marketing: [],
  web: ['visits_7d', 'booking_page_visits_7d'],
};

/** Why a planet is not good: one per metric that is not. Worded per language by `healthReason`. */
export type Finding =
  | {
      kind: 'level';
      metric: string;
      health: Exclude<Health, 'good'>;
      value: number;
      target: number;
      unit: Metric['unit'];
      better: Better;
      /** 'sector': the sector's figure (`estimate` when it is one); 'rule': a fixed target of ours. */
      against: 'sector' | 'rule';
      estimate: boolean;
    }
  | { kind: 'fall'; metric: string; health: 'watch'; value: number; previous: number; changePct: number; unit: Metric['unit'] };

/** How far `value` is from `target`, as good / watch / act. */
export function judge(value: number, target: number, better: Better): Health {
  // > 1 means worse than the target, by that factor.
  const worseBy = better === 'higher' ? (value === 0 ? Infinity : target / value) : value / target;
  if (worseBy <= NEAR_BENCHMARK) return 'good';
  return worseBy <= WATCH_TOLERANCE ? 'watch' : 'act';
}

/** The metric moved by more than the steady band in its good direction. */
const improving = (metric: Metric, better: Better) =>
  metric.changePct != null && (better === 'higher' ? metric.changePct > STEADY_PCT : metric.changePct < -STEADY_PCT);

const rank: Record<Health, number> = { good: 0, watch: 1, act: 2 };

/**
 * Judges a planet's metrics by its level and fall rules. `samples` holds each judged metric's
 * observations (a rate's denominator, a change's previous count); a metric with no value or fewer than
 * MIN_SAMPLE is not judged. Findings come worst first, level before fall.
 */
export function assessHealth(
  planet: Planet,
  metrics: Record<string, Metric>,
  samples: Record<string, number>,
  benchmark: LoadedBenchmark,
): { health: Health; findings: Finding[] } {
  const findings: Finding[] = [];
  const enough = (id: string) => (samples[id] ?? 0) >= MIN_SAMPLE;
  for (const rule of RULES[planet]) {
    const metric = metrics[rule.metric];
    if (!metric || metric.value === null || !enough(rule.metric) || improving(metric, rule.better)) continue;
    const figure = typeof rule.benchmark === 'string' ? benchmark.figures[rule.benchmark] : null;
    const target = figure ? figure.value : (rule.benchmark as { target: number }).target;
    const health = judge(metric.value, target, rule.better);
    if (health === 'good') continue;
    findings.push({
      kind: 'level',
      metric: rule.metric,
      health,
      value: metric.value,
      target,
      unit: metric.unit,
      better: rule.better,
      against: figure ? 'sector' : 'rule',
      estimate: figure ? 'estimate' in figure : false,
    });
  }
  for (const id of FALL_RULES[planet]) {
    const metric = metrics[id];
    if (!metric || metric.value === null || metric.previous == null || metric.changePct == null || !enough(id)) continue;
    if (metric.changePct > -FALL_WATCH_PCT) continue;
    findings.push({ kind: 'fall', metric: id, health: 'watch', value: metric.value, previous: metric.previous, changePct: metric.changePct, unit: metric.unit });
  }
  findings.sort((a, b) => rank[b.health] - rank[a.health]);
  return { health: findings[0]?.health ?? 'good', findings };
}
