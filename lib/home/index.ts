/**
 * The Home: the daily brief (pulse, needs-your-OK, done-for-you, planets) composed at read time, and
 * each person's layout of it.
 */
export { approvalResult, composeDailyBrief, DONE_WINDOW_HOURS, PROPOSALS_SHOWN, TREND_METRIC, trendOf, type DailyBrief, type DoneGroup, type PlanetSummary, type RoutineRunDone, type Trend } from './brief';
export { DEFAULT_PREFS, getHomePrefs, homePrefsSchema, normalizePrefs, saveHomePrefs, SECTIONS, type HomePrefs, type SectionId } from './prefs';
export { seedHomeDemo } from './demo';
export { planetDetail, planetSummaries, type PlanetDetail } from './planet';
