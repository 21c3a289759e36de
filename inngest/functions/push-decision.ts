import { pushProposal, pushTargets } from '@/lib/push';
import { defineFunction } from '../define';

/**
 * decisions/proposed → a Web Push to each device of the workspace's owner and admins, with Approve and
 * Ignore on the notification (lib/push, docs/notifications.md). One step per device, so a retry after one
 * push service failed does not push the others again; each step checks that the proposal still waits.
 */
export const pushDecision = defineFunction(
  { id: 'push-decision', triggers: [{ event: 'decisions/proposed' }], concurrency: { limit: 5 }, retries: 4 },
  async ({ event, step }) => {
    const { workspaceId, decisionId } = event.data;
    const devices = await step.run('devices', () => pushTargets(workspaceId, decisionId, new Date()));
    const outcomes: string[] = [];
    for (const id of devices) outcomes.push(await step.run(`push-${id}`, () => pushProposal(id, workspaceId, decisionId, new Date())));
    return { devices: devices.length, sent: outcomes.filter((o) => o === 'sent').length, gone: outcomes.filter((o) => o === 'gone').length };
  },
);
