import { announceClaimableDeliveries } from '@/lib/chat';
import { defineFunction } from '../define';

/**
 * Every minute: agents whose deliveries are claimable again (a lease ran out) or were never
 * announced get a `deliveries` event, so a live connection claims them within a minute instead of
 * waiting for the next message.
 */
export const announceClaimableDeliveriesJob = defineFunction(
  { id: 'announce-claimable-deliveries', triggers: [{ cron: '* * * * *' }] },
  async ({ step }) => {
    const agents = await step.run('announce', () => announceClaimableDeliveries());
    return { agents: agents.length };
  },
);
