import { deliverDueMessages } from '@/lib/actions';
import { asService } from '@/lib/db';
import { defineFunction } from '../define';

/**
 * The outbox's stand-in for a provider: a queued message waits until its `send_after` (the undo
 * window, moved out of quiet hours) and is then marked sent, unless it was undone or a kill switch
 * is on. The quarter-hourly sweep delivers anything whose event was lost.
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
