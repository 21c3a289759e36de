import { abandonStalledThreads } from '@/lib/chat';
import { defineFunction } from '../define';

/**
 * Every 10 minutes: side threads nobody wrote in for an hour turn abandoned (their cards say so) and
 * what was still queued in them is dropped.
 */
export const abandonStalledThreadsJob = defineFunction({ id: 'abandon-stalled-threads', triggers: [{ cron: '*/10 * * * *' }] }, async ({ step }) => {
  const abandoned = await step.run('abandon', () => abandonStalledThreads());
  return { abandoned: abandoned.length };
});
