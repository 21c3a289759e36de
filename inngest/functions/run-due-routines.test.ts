import { describe, expect, it } from 'vitest';
import { createAgent } from '@/lib/agents';
import { createConversation, listMessages } from '@/lib/chat';
import { deliveriesOf } from '@/lib/chat/test-world';
import { asService } from '@/lib/db';
import { createRoutine, listRoutines } from '@/lib/schedule';
import { createWorkspace } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser, joinWorkspace } from '@/test/fixtures';
import { RUNTIMES, startRuntime } from '../testing';
import { runDueRoutines } from './run-due-routines';

setupTestDatabase();

describe.each(RUNTIMES)('%s', (runtimeName) => {
  it('on the five minutes writes a due routine in the creator’s DM with the agent, once, and schedules its next slot', async () => {
    const [owner, admin] = await Promise.all([createUser('owner'), createUser('admin')]);
    const team = await createWorkspace(owner, { name: 'Studio Aurora', timeZone: 'Europe/Rome' });
    await joinWorkspace(owner, team.id, admin, 'admin');
    const nova = await createAgent(owner, { name: 'Nova', role: 'Front desk', runtime: 'local', backend: 'offline' });
    const routine = await createRoutine(admin, team.id, {
      agentId: nova.id,
      name: 'Morning bookings',
      instruction: "Summarise yesterday's bookings and today's gaps.",
      schedule: { kind: 'cron', cron: '0 7 * * *' },
    });
    // Its slot came a minute ago.
    const slot = new Date(Date.now() - 60_000);
    await asService((tx) => tx.query(`update public.routines set next_run_at = $2 where id = $1`, [routine.id, slot]));

    const tick = new Date(Math.ceil((Date.now() + 1) / 300_000) * 300_000);
    let now = new Date(tick.getTime() - 1);
    const runtime = await startRuntime(runtimeName, { functions: [runDueRoutines], now: () => now });
    try {
      await runtime.runUntilIdle();
      now = tick;
      await runtime.runUntilIdle();
      // The next tick finds nothing due.
      now = new Date(tick.getTime() + 300_000);
      await runtime.runUntilIdle();
    } finally {
      await runtime.stop();
    }

    expect((await runtime.runs('run-due-routines')).map((r) => [r.status, r.output])).toEqual([
      ['completed', { scheduled: 1, sent: 1, failed: 0 }],
      ['completed', { scheduled: 0, sent: 0, failed: 0 }],
    ]);
    const { conversation: dm } = await createConversation(admin, { kind: 'dm', workspaceId: team.id, agentIds: [nova.id] });
    const [message, ...more] = (await listMessages(admin, dm.id)).messages;
    expect(more).toEqual([]);
    expect(message).toMatchObject({ body: "Summarise yesterday's bookings and today's gaps." });
    expect(await deliveriesOf(message!.id)).toEqual([expect.objectContaining({ agent_id: nova.id, status: 'pending' })]);
    const [listed] = await listRoutines(admin, team.id);
    expect(listed!.lastRun).toMatchObject({ status: 'sent', manual: false, conversationId: dm.id, messageId: message!.id, dueAt: slot });
    expect(listed!.nextRunAt!.getTime()).toBeGreaterThan(tick.getTime());
  });
});
