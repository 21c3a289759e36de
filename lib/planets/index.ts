/**
 * Planets: the business data of a workspace (booking, crm, sales, content, marketing, web), its
 * metrics and health against the sector benchmark, and the Studio Aurora demo data.
 *
 * Tables: supabase/migrations/20261130000300_planets.sql (grants and who writes what are documented there).
 */
export {
  APPOINTMENT_STATUSES,
  CAMPAIGN_STATUSES,
  DEAL_STATUSES,
  isPlanet,
  LEAD_SOURCES,
  LEAD_STATUSES,
  PLANETS,
  POST_CHANNELS,
  POST_STATUSES,
  WAITLIST_STATUSES,
  type AppointmentStatus,
  type DealStatus,
  type Health,
  type Metric,
  type MetricUnit,
  type MetricsOptions,
  type Planet,
  type PlanetMetrics,
  type Pulse,
} from './types';
export { computeAllPlanets, computePlanetMetrics, computePulse, LAPSE_GRACE, LAPSE_MIN_VISITS, STALE_DEAL_DAYS } from './metrics';
export { planetMetricsForAgent } from './for-agent';
export { healthReason, healthReasonShort, metricLabel, metricValue } from './format';
export { money } from './money';
export {
  assessHealth,
  FALL_RULES,
  FALL_WATCH_PCT,
  judge,
  MIN_SAMPLE,
  NEAR_BENCHMARK,
  RULES,
  STEADY_PCT,
  WATCH_TOLERANCE,
  type Finding,
  type Rule,
} from './health';
export { BOOKED_AHEAD_DAYS, DEMO_SEED, FUTURE_DAYS, HISTORY_DAYS, OPEN_WEEKDAYS, generateDemoData, type DemoData, type DemoOptions } from './demo';
export { insertPlanetData, seedPlanetsDemo, type PlanetDataTarget } from './seed';
