/** The six planets of a business; `cross` (agent runs spanning planets) has no metrics of its own. */
export const PLANETS = ['booking', 'crm', 'sales', 'content', 'marketing', 'web'] as const;
export type Planet = (typeof PLANETS)[number];

export type Health = 'good' | 'watch' | 'act';

/**
 * `ratio` is a fraction (0.07 = 7%); `cents` is money in the workspace's currency (EUR for now);
 * `days` may be fractional.
 */
export type MetricUnit = 'count' | 'ratio' | 'cents' | 'days';

export interface Metric {
  /** null when there is nothing to measure yet (a rate with no denominator). */
  value: number | null;
  unit: MetricUnit;
  /** The same measure over the previous comparable period (see each metric's comment). */
  previous?: number | null;
  /** (value − previous) / previous × 100, one decimal; null when previous is 0 or missing. */
  changePct?: number | null;
  /** The sector benchmark this metric is judged against, when there is one. */
  benchmark?: number;
}

export interface PlanetMetrics {
  planet: Planet;
  metrics: Record<string, Metric>;
  health: Health;
  /** One sentence per metric that is not good, worst first. Empty when all is well. */
  reasons: string[];
}

export interface Pulse {
  bookingsToday: number;
  newLeads7d: number;
  /** Completed appointments from Monday 00:00 until now, in the workspace's time zone. */
  revenueThisWeekCents: number;
  /** The same span of last week (Monday 00:00 until the same weekday and time). */
  revenueLastWeekCents: number;
  revenueChangePct: number | null;
}

export interface MetricsOptions {
  /** Defaults to the current time; tests and replays pass a fixed instant. */
  now?: Date;
  /** The workspace's IANA time zone: "today" and "this week" are local to it. */
  timeZone: string;
}
