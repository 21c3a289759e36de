import { expireApprovals } from '@/lib/cards';
import { defineFunction } from '../define';

/**
 * Every hour: card approvals nobody answered in time turn expired, and both cards (the one whose
 * button was clicked and the approval card) say so. A late OK is refused at the click as well; this
 * sweep is what makes the cards show it without anyone clicking. (Proposals on the Home,
 * lib/autonomy's decisions, are swept by analyze-planet-data-schedule.)
 */
export const expireCardApprovals = defineFunction({ id: 'expire-card-approvals', triggers: [{ cron: '0 * * * *' }] }, async ({ event, step }) => {
  // The scheduled instant, not the wall clock: a late or replayed tick expires what was due then.
  const expired = await step.run('expire', () => expireApprovals(new Date(event.ts)));
  return { expired };
});
