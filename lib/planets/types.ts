import type { SectorId } from '@/lib/workspaces';
import type { Finding } from './health';

/** The six planets of a business; `cross` (agent runs spanning planets) has no metrics of its own. */
export const PLANETS = ['booking', 'crm', 'sales', 'content', 'marketing', 'web'] as const;
export type Planet = (typeof PLANETS)[number];
export const isPlanet = (value: string): value is Planet => (PLANETS as readonly string[]).includes(value);

export const APPOINTMENT_STATUSES = ['booked', 'confirmed', 'completed', 'cancelled', 'no_show'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

export const WAITLIST_STATUSES = ['waiting', 'offered', 'booked', 'expired'] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

export const LEAD_SOURCES = ['instagram', 'facebook', 'google', 'website', 'referral', 'walk_in', 'phone', 'other'] as const;
export type LeadSource = (typeof LEAD_SOURCES)[number];
export const LEAD_STATUSES = ['new', 'contacted', 'converted', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const DEAL_STATUSES = ['open', 'won', 'lost'] as const;
export type DealStatus = (typeof DEAL_STATUSES)[number];

export const POST_CHANNELS = ['instagram', 'facebook', 'tiktok', 'google_business', 'blog'] as const;
export type PostChannel = (typeof POST_CHANNELS)[number];
export const POST_STATUSES = ['draft', 'scheduled', 'published'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sent'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

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
  /** The sector whose benchmark judged the metrics (`other` for a sector without a pack). */
  sector: SectorId;
  /** From the rules in health.ts: the worst of the findings, `good` when there are none. */
  health: Health;
  /** Why the planet is not good, worst first; words them per language (`healthReason`). */
  findings: Finding[];
  /** The findings in English, one sentence each, for agents and the API. Empty when all is well. */
  reasons: string[];
}

/**
 * The Home's pulse line. Revenue compares like with like: the takings (completed appointments) of this
 * week's finished days, Monday until last midnight in the workspace's time zone, against the same days
 * of last week. Today is left out on both sides because its visits are still being checked out. Where
 * last week's same days took nothing (Monday, or a salon closed on the days so far) there is nothing
 * to compare, and the pulse shows the week's booked value instead.
 */
export interface Pulse {
  bookingsToday: number;
  newLeads7d: number;
  revenueThisWeekCents: number;
  revenueLastWeekCents: number;
  /** null when last week's same days took nothing. */
  revenueChangePct: number | null;
  /** This whole week's appointments that are completed, booked or confirmed (not cancelled or missed). */
  bookedThisWeekCents: number;
}

export interface MetricsOptions {
  /** Defaults to the current time; tests and replays pass a fixed instant. */
  now?: Date;
  /** The workspace's IANA time zone: "today" and "this week" are local to it. */
  timeZone: string;
}
