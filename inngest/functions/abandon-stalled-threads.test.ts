import { describe, expect, it } from 'vitest';
import { claimDeliveries, getConversation, listMessages, sendMessage } from '@/lib/chat';
import { chatWorld } from '@/lib/chat/test-world';
import { asService } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { RUNTIMES, startRuntime } from '../testing';
import { abandonStalledThreadsJob } from './abandon-stalled-threads';

setupTestDatabase();

describe.each(RUNTIMES)('%s', (runtimeName) => {
  it('abandons a side thread nobody wrote in for an hour, on the ten minutes: its card says so and what was queued in it is dropped', async () => {
    const w = await chatWorld();
    const opened = await sendMessage(w.as(w.nova), w.channel.id, '<dm target="Iris">anyone?</dm>');
    const fresh = await sendMessage(w.as(w.nova), w.channel.id, '<dm target="Atlas">still going</dm>');
    const [stalled, active] = [opened.payload.sideThreads![0]!, fresh.payload.sideThreads![0]!];
    await asService((tx) => tx.query(`update public.conversations set last_message_at = now() - interval '2 hours' where id = $1`, [stalled]));

    const tick = new Date(Math.ceil((Date.now() + 1) / 600_000) * 600_000);
    let now = new Date(tick.getTime() - 1);
    const runtime = await startRuntime(runtimeName, { functions: [abandonStalledThreadsJob], now: () => now });
    try {
      await runtime.runUntilIdle();
      expect((await getConversation(w.owner, stalled)).status).toBe('open');
      now = tick;
      await runtime.runUntilIdle();
    } finally {
      await runtime.stop();
    }

    expect(await runtime.runs('abandon-stalled-threads')).toEqual([expect.objectContaining({ status: 'completed', output: { abandoned: 1 } })]);
    expect((await getConversation(w.owner, stalled)).status).toBe('abandoned');
    expect((await getConversation(w.owner, active)).status).toBe('open');
    const card = (await listMessages(w.owner, w.channel.id)).messages.find((m) => m.id === opened.id)!;
    expect(card.sideThreads).toEqual([{ id: stalled, status: 'abandoned' }]);
    expect(await claimDeliveries(w.iris.id, 'iris-1')).toEqual([]);
  });
});
