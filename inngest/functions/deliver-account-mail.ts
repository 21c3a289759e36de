import { sendAccountMail } from '@/lib/channels';
import { defineFunction } from '../define';

/**
 * Account mail (password resets, invitations, quota warnings) through the install's SMTP (lib/channels,
 * docs/messages.md): a run per queued mail, sleeping until its retry time when it is a retry, and a
 * quarter-hourly sweep for any mail whose event was lost.
 */
export const deliverAccountMail = defineFunction(
  { id: 'deliver-account-mail', triggers: [{ event: 'account-mail/queued' }, { cron: '*/15 * * * *' }], retries: 4 },
  async ({ event, step }) => {
    if (event.name === 'account-mail/queued') {
      await step.sleepUntil('wait-for-retry-time', event.data.sendAfter);
      return step.run('send', () => sendAccountMail(new Date(), [event.data.mailId]));
    }
    return step.run('send-overdue', () => sendAccountMail(new Date(event.ts)));
  },
);
