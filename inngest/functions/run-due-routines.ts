import { deliverPendingRuns, scheduleDueRoutines } from '@/lib/schedule';
import { defineFunction } from '../define';

/**
 * Every five minutes: each routine that came due gets its run, and every pending run its message in the
 * DM with the agent. One tick at a time; a replayed tick fires nothing twice (runs are unique per slot,
 * and claimed under a lease for delivery). Runs a crashed tick left pending go out with the next one.
 */
export const runDueRoutines = defineFunction({ id: 'run-due-routines', triggers: [{ cron: '*/5 * * * *' }], concurrency: { limit: 1 } }, async ({ event, step }) => {
  // The scheduled instant, not the wall clock: a late tick fires what was due then, the next one the rest.
  const scheduled = await step.run('schedule', () => scheduleDueRoutines(new Date(event.ts)));
  const delivered = await step.run('deliver', () => deliverPendingRuns());
  return { scheduled, ...delivered };
});
