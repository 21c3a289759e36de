import { deliverDueMessages } from '@/lib/actions';
import { asService } from '@/lib/db';
import { defineFunction } from '../define';

/**
 * The outbox's pass over a message once its `send_after` (the undo window, moved out of quiet hours) has
 * come: cancelled when a kill switch is on, otherwise left for a provider. None is connected yet, so it
 * stays queued and nothing claims it was sent (lib/actions/outbox.ts). The quarter-hourly sweep takes
 * anything whose event was lost.
 */
export const deliverMessages = defineFunction(
  { id: 'deliver-messages', triggers: [{ event: 'messages/queued' }, { cron: '*/15 * * * *' }], retries: 4 },
  async ({ event, step }) => {
    if (event.name === 'messages/queued') {
      await step.sleepUntil('wait-for-undo-window', event.data.sendAfter);
      return step.run('deliver', () => asService((tx) => deliverDueMessages(tx, new Date(), [event.data.messageId])));
    }
    return step.run('deliver-overdue', () => asService((tx) => deliverDueMessages(tx, new Date(event.ts))));
  },
);
