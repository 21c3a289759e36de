import { describe, expect, it } from 'vitest';
import { clickAction, publishResults, readAttachments } from '@/lib/cards';
import { claimDeliveries } from '@/lib/chat';
import { chatWorld } from '@/lib/chat/test-world';
import { asService } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { RUNTIMES, startRuntime } from '../testing';
import { expireCardApprovals } from './expire-card-approvals';

setupTestDatabase();

const payloadOf = (messageId: string) =>
  asService((tx) => tx.query<{ payload: Record<string, unknown> }>(`select payload from public.messages where id = $1`, [messageId])).then(([r]) => r!.payload);

describe.each(RUNTIMES)('%s', (runtimeName) => {
  it('expires unanswered card approvals on the hour, after which a late OK is refused and never reaches the agent', async () => {
    const w = await chatWorld();
    const { message } = await publishResults(w.iris.id, {
      conversationId: w.channel.id,
      results: [{ type: 'email', data: { to: ['giulia@example.test'], subject: 'Your booking tomorrow', body: 'Ciao Giulia, a domani!' } }],
    });
    const click = await clickAction(w.owner, message.id, { cardId: 'c1', actionId: 'send' });
    expect(click.status).toBe('awaiting_approval');

    // The first hour after the approval's day is over (it counts for 24 hours).
    const tick = new Date(Math.ceil((click.expiresAt!.getTime() + 1) / 3_600_000) * 3_600_000);
    let now = new Date(tick.getTime() - 1);
    const runtime = await startRuntime(runtimeName, { functions: [expireCardApprovals], now: () => now });
    try {
      await runtime.runUntilIdle();
      now = tick;
      await runtime.runUntilIdle();
    } finally {
      await runtime.stop();
    }

    expect(await runtime.runs('expire-card-approvals')).toEqual([expect.objectContaining({ status: 'completed', output: { expired: 1 } })]);
    expect(readAttachments(await payloadOf(message.id)).actionState['c1:send']).toMatchObject({ status: 'expired' });
    expect(readAttachments(await payloadOf(click.approvalMessageId!)).actionState['approval:approve']).toMatchObject({ status: 'expired' });

    await expect(clickAction(w.owner, click.approvalMessageId!, { cardId: 'approval', actionId: 'approve' })).rejects.toMatchObject({ code: 'conflict' });
    expect(await claimDeliveries(w.iris.id, 'iris-1')).toEqual([]);
  });
});
