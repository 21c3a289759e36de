import { expireDecisions } from '@/lib/autonomy';
import { analyzePlanet, claimDueAnalyses, pruneAnalysisDays, recordAnalysis } from '@/lib/insights';
import { PLANETS, type Planet } from '@/lib/planets';
import { defineFunction } from '../define';
import { NonRetriableError } from '../executor';

/**
 * Every hour: close proposals past their expiry, then fan out today's analysis to every workspace
 * whose local time is past 06:00 and whose day has not been analysed yet — one run per workspace and
 * planet (see lib/insights/schedule.ts for why hourly rather than one 06:00 cron per time zone).
 */
export const analyzePlanetDataSchedule = defineFunction(
  { id: 'analyze-planet-data-schedule', triggers: [{ cron: '0 * * * *' }], retries: 2 },
  async ({ event, step }) => {
    // The scheduled instant, not the wall clock: a late or replayed tick claims the day it was for.
    const now = new Date(event.ts);
    const expired = await step.run('expire-proposals', () => expireDecisions(now));
    const runs = await step.run('claim-and-fan-out', () => claimDueAnalyses(now));
    const pruned = await step.run('prune-claims', () => pruneAnalysisDays(now));
    return { expired, runs: runs.length, pruned };
  },
);

/** One planet of one workspace for one local date; at most five at once, so a morning never floods the model. */
export const analyzePlanetData = defineFunction(
  { id: 'analyze-planet-data', triggers: [{ event: 'insights/analyze.planet' }], concurrency: { limit: 5 }, retries: 2 },
  async ({ event, step }) => {
    const { workspaceId, planet, localDate } = event.data;
    if (!(PLANETS as readonly string[]).includes(planet)) throw new NonRetriableError(`Unknown planet ${planet}`);
    const outcome = await step.run('analyze', () => analyzePlanet({ workspaceId, planet: planet as Planet, localDate }));
    await step.run('record', () => recordAnalysis(event.data, outcome as never, new Date()));
    return outcome;
  },
);
