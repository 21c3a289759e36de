import { deliverDueMessages } from '@/lib/actions';
import { sendDueMessages } from '@/lib/channels';
import { asService } from '@/lib/db';
import { defineFunction } from '../define';

/**
 * The outbox's pass over a message once its `send_after` (the undo window, moved out of quiet hours) or
 * its retry time has come: cancelled when a kill switch is on, otherwise handed to its channel's provider
 * (lib/channels). The quarter-hourly sweep takes anything whose event was lost, and messages that were
 * waiting for a provider to be connected.
 */
export const deliverMessages = defineFunction(
  { id: 'deliver-messages', triggers: [{ event: 'messages/queued' }, { cron: '*/15 * * * *' }], retries: 4 },
  async ({ event, step }) => {
    if (event.name === 'messages/queued') {
      await step.sleepUntil('wait-for-undo-window', event.data.sendAfter);
      return step.run('deliver', async () => {
        const now = new Date();
        const { cancelled } = await asService((tx) => deliverDueMessages(tx, now, [event.data.messageId]));
        return { ...(await sendDueMessages(now, [event.data.messageId])), cancelled };
      });
    }
    return step.run('deliver-overdue', async () => {
      const now = new Date(event.ts);
      const { cancelled } = await asService((tx) => deliverDueMessages(tx, now));
      return { ...(await sendDueMessages(now)), cancelled };
    });
  },
);
