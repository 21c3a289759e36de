import { submitAction } from '@/lib/autonomy';
import { asService } from '@/lib/db';
import { defineFunction } from '../define';

/**
 * booking/cancelled → offer the freed slot to the first waiting customer whose window fits it (or
 * propose it, or nothing, as the booking planet's autonomy says). The offer's dedupe key admits one
 * per slot, so a replayed event, or the morning analysis finding the same slot, changes nothing.
 */
export const offerFreedSlot = defineFunction(
  { id: 'offer-freed-slot', triggers: [{ event: 'booking/cancelled' }], concurrency: { limit: 5 }, retries: 4 },
  async ({ event, step }) => {
    const { workspaceId, appointmentId } = event.data;
    return step.run('offer', () =>
      asService((tx) => submitAction(tx, { workspaceId, type: 'waitlist_offer', input: { appointmentId }, trigger: 'event:booking/cancelled', now: new Date() })),
    );
  },
);
