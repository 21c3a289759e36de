import { processNext, stalledWorkspaces } from '@/lib/topics';
import { defineFunction } from '../define';

/**
 * The topic queue's worker. A wake runs the workspace's next request and, when more are waiting, wakes
 * the workspace again, so each run holds one request and a queue drains one run at a time. Runs of
 * different workspaces are independent. Inngest's per-workspace limit is the most any workspace may
 * configure; the claim enforces the workspace's own setting (default 1) and its oldest-first order.
 *
 * Every minute a sweep wakes queues that may be stuck: a request whose worker died (its lease expired)
 * or pending work with nothing running (a wake lost with a crashed process).
 */
export const processTopicRequest = defineFunction(
  {
    id: 'process-topic-request',
    triggers: [{ event: 'topics/queue.wake' }, { cron: '* * * * *' }],
    concurrency: { limit: 10, key: 'event.data.workspaceId' },
    retries: 3,
  },
  async ({ event, step }) => {
    if (event.name === 'inngest/scheduled.timer') {
      const stalled = await step.run('find-stalled-queues', () => stalledWorkspaces());
      if (stalled.length > 0) {
        await step.sendEvent(
          'wake-stalled-queues',
          stalled.map((workspaceId) => ({ name: 'topics/queue.wake' as const, data: { workspaceId } })),
        );
      }
      return { woken: stalled.length };
    }
    const { workspaceId } = event.data;
    const processed = await step.run('process-next-request', () => processNext(workspaceId));
    if (processed?.more) await step.sendEvent('wake-for-next-request', { name: 'topics/queue.wake', data: { workspaceId } });
    return processed;
  },
);
