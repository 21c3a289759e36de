import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queueMessage } from '@/lib/actions';
import { asService } from '@/lib/db';
import { createWorkspace } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { RUNTIMES, startRuntime, type TestRuntime } from '../testing';
import { deliverMessages } from './deliver-messages';

setupTestDatabase();

/**
 * deliver-messages with the clock moved by hand: a queued message's run sleeps until the message's
 * `send_after` and only then looks at it; the quarter-hourly sweep takes one whose event was lost. No
 * provider is connected, so what a pass visibly does is cancel a message a kill switch stopped.
 */
const at = (iso: string) => vi.setSystemTime(new Date(iso));
const q = <T = Record<string, any>>(sql: string, params: unknown[] = []) => asService((tx) => tx.query<T>(sql, params));

async function salon() {
  const owner = await createUser('owner');
  return createWorkspace(owner, { name: 'Studio Aurora', timeZone: 'Europe/Rome' });
}

/** The workspace kill switch, turned on without the cancellation that comes with it in the app (a race with the queueing). */
const pauseOnly = (workspaceId: string) =>
  q(`insert into public.workspace_autonomy (workspace_id, paused) values ($1, true) on conflict (workspace_id) do update set paused = true`, [workspaceId]);

const messageOf = (id: string) => q<{ status: string; error: string | null }>(`select status, error from public.outbox_messages where id = $1`, [id]).then(([m]) => m);

describe.each(RUNTIMES)('%s', (runtimeName) => {
  let runtime: TestRuntime;
  const runs = async () => runtime.runs('deliver-messages');

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at('2026-12-01T08:59:00Z');
    runtime = await startRuntime(runtimeName, { functions: [deliverMessages] });
  });
  afterAll(async () => {
    await runtime.stop();
    vi.useRealTimers();
  });

  it('sleeps until the message may go, then cancels it when a kill switch came on meanwhile', async () => {
    const workspace = await salon();
    at('2026-12-01T09:00:00Z'); // 10:00 in Rome, outside the quiet hours: the undo window alone
    const message = await asService((tx) =>
      queueMessage(tx, {
        workspaceId: workspace.id,
        timeZone: 'Europe/Rome',
        decisionId: null,
        customerId: null,
        channel: 'sms',
        recipient: '+39 333 111 2222',
        recipientName: 'Lucia Neri',
        body: 'Ciao Lucia, a domani alle 10!',
        now: new Date(),
      }),
    );
    expect(message.sendAfter).toEqual(new Date('2026-12-01T09:00:30Z'));
    await runtime.runUntilIdle();
    const ofMessage = async () => (await runs()).filter((r) => r.event.data.messageId === message.id);
    expect(await ofMessage()).toMatchObject([{ status: 'sleeping', wakeAt: message.sendAfter }]);

    await pauseOnly(workspace.id);
    at('2026-12-01T09:00:29Z');
    await runtime.runUntilIdle();
    expect(await messageOf(message.id)).toMatchObject({ status: 'queued' });

    at('2026-12-01T09:00:30Z');
    await runtime.runUntilIdle();
    expect(await ofMessage()).toMatchObject([{ status: 'completed', output: { cancelled: 1 } }]);
    expect(await messageOf(message.id)).toEqual({ status: 'cancelled', error: 'Stopped by a kill switch before it was sent.' });
  });

  it('takes a due message whose event was lost at the next quarter hour', async () => {
    const workspace = await salon();
    await pauseOnly(workspace.id);
    const [lost] = await q<{ id: string }>(
      `insert into public.outbox_messages (workspace_id, channel, recipient, body, send_after)
       values ($1, 'sms', '+39 333 444 5555', 'Ciao!', '2026-12-01T09:05:00Z') returning id`,
      [workspace.id],
    );
    at('2026-12-01T09:14:59Z');
    await runtime.runUntilIdle();
    expect(await messageOf(lost!.id)).toMatchObject({ status: 'queued' });

    at('2026-12-01T09:15:00Z');
    await runtime.runUntilIdle();
    const sweeps = (await runs()).filter((r) => r.event.name === 'inngest/scheduled.timer');
    expect(sweeps.at(-1)).toMatchObject({ status: 'completed', output: { cancelled: 1 } });
    expect(await messageOf(lost!.id)).toMatchObject({ status: 'cancelled' });
  });
});
