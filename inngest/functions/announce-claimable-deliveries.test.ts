import { describe, expect, it } from 'vitest';
import { claimDeliveries, sendMessage } from '@/lib/chat';
import { chatWorld, deliveriesOf } from '@/lib/chat/test-world';
import { asService } from '@/lib/db';
import { subscribe, type RealtimeEvent } from '@/lib/realtime';
import { setupTestDatabase } from '@/test/db';
import { waitFor } from '@/test/wait';
import { RUNTIMES, startRuntime } from '../testing';
import { announceClaimableDeliveriesJob } from './announce-claimable-deliveries';

// A database per runtime: the function looks at every agent's deliveries and counts the agents it told.
describe.each(RUNTIMES)('%s', (runtimeName) => {
  setupTestDatabase();

  it('tells an agent, on the minute, about work whose announcement was lost, so its live connection claims it', async () => {
    const w = await chatWorld();
    const lost = await sendMessage(w.person(w.owner), w.channel.id, '@Nova can you check the March invoices?');
    // Queued a minute ago, and the announcement never reached Nova's connection.
    await asService((tx) => tx.query(`update private.deliveries set created_at = now() - interval '1 minute' where message_id = $1`, [lost.id]));
    // Queued just now: announced when it was, so not again.
    await sendMessage(w.person(w.owner), w.channel.id, '@Iris a post for Friday?');

    const told: string[] = [];
    const unsubscribe = await subscribe((event: RealtimeEvent) => {
      if (event.type === 'deliveries') told.push(event.agentId);
    });
    const tick = new Date(Math.ceil((Date.now() + 1) / 60_000) * 60_000);
    let now = new Date(tick.getTime() - 1);
    const runtime = await startRuntime(runtimeName, { functions: [announceClaimableDeliveriesJob], now: () => now });
    try {
      await runtime.runUntilIdle();
      now = tick;
      await runtime.runUntilIdle();
      await waitFor(() => told.includes(w.nova.id), 'Nova to be told');
    } finally {
      await runtime.stop();
      await unsubscribe();
    }

    expect(await runtime.runs('announce-claimable-deliveries')).toEqual([expect.objectContaining({ status: 'completed', output: { agents: 1 } })]);
    expect(await deliveriesOf(lost.id)).toMatchObject([{ agent_id: w.nova.id, status: 'pending' }]);
    expect(await claimDeliveries(w.nova.id, 'nova-1')).toMatchObject([{ message: { id: lost.id } }]);
  });
});
