import { beforeAll, describe, expect, it } from 'vitest';
import { GET as listOutboxRoute } from '@/app/api/workspaces/[workspaceId]/outbox/route';
import { deliverDueMessages, type ActionType } from '@/lib/actions';
import { signAccessToken } from '@/lib/auth';
import { asService } from '@/lib/db';
import { findCandidates } from '@/lib/insights';
import { setupTestDatabase } from '@/test/db';
import { approveDecision, changeAutonomy, submitAction } from './index';
import { createSalon, type Salon } from './test-world';

setupTestDatabase();

/**
 * No SMS or email provider is connected: nothing may say a message was sent. A message stays queued
 * however long ago it became due; `sent` needs a provider (and a sent_at), `delivered` a delivered_at.
 */
const NOW = new Date('2026-11-30T06:00:00Z'); // Monday 07:00 in Rome, in the quiet hours
const later = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

let salon: Salon;
let lapsed: string[];
beforeAll(async () => {
  salon = await createSalon();
  const crm = await asService((tx) => findCandidates(tx, salon.workspace.id, 'crm', NOW));
  lapsed = crm.lapsed.filter((c) => c.eligible).map((c) => c.customerId);
});

const ws = () => salon.workspace.id;
const messageOf = (decisionId: string) =>
  asService((tx) => tx.query<{ id: string; status: string; sent_at: Date | null }>(`select id, status, sent_at from public.outbox_messages where decision_id = $1`, [decisionId])).then(
    (rows) => rows[0]!,
  );

async function approve(type: ActionType, input: Record<string, unknown>, now: Date) {
  const outcome = await asService((tx) => submitAction(tx, { workspaceId: ws(), type, input, trigger: 'test', now }));
  if (outcome.status !== 'proposed') throw new Error(JSON.stringify(outcome));
  return { decisionId: outcome.decisionId, result: await approveDecision(salon.owner, ws(), outcome.decisionId, { argsHash: outcome.argsHash, now }) };
}

describe('the outbox without a provider', () => {
  it('says an approved message is queued, and keeps it queued long after it became due', async () => {
    const { decisionId, result } = await approve('win_back', { customerId: lapsed[0] }, later(1));
    expect(result.delivery).toMatchObject({ status: 'queued', sent_at: null });

    // Past the undo window and the quiet hours (08:00), and a day later: still queued, never "sent".
    await asService((tx) => deliverDueMessages(tx, later(90)));
    await asService((tx) => deliverDueMessages(tx, later(24 * 60)));
    expect(await messageOf(decisionId)).toMatchObject({ status: 'queued', sent_at: null });

    // The API says the same.
    const response = await listOutboxRoute(new Request(`http://test/api/workspaces/${ws()}/outbox`, { headers: { authorization: `Bearer ${await signAccessToken(salon.owner)}` } }), {
      params: Promise.resolve({ workspaceId: ws() }),
    });
    const { data } = (await response.json()) as { data: Array<{ status: string; sentAt: string | null }> };
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((m) => m.status === 'queued' && m.sentAt === null)).toBe(true);
  });

  it('still cancels a due message whose planet a kill switch stopped', async () => {
    const { decisionId } = await approve('win_back', { customerId: lapsed[1] }, later(2));
    // Paused behind the settings' back (the switch itself cancels at once): the pass is the last guard.
    await asService((tx) =>
      tx.query(`insert into public.workspace_planet_autonomy (workspace_id, planet, paused) values ($1, 'crm', true)`, [ws()]),
    );
    const { id } = await messageOf(decisionId);
    expect(await asService((tx) => deliverDueMessages(tx, later(90), [id]))).toEqual({ cancelled: 1 });
    expect((await messageOf(decisionId)).status).toBe('cancelled');
    await changeAutonomy(salon.owner, ws(), { planet: 'crm', paused: false }, later(91));
  });

  it('refuses `sent` without the moment it was sent, and `delivered` without the moment it arrived', async () => {
    const { decisionId } = await approve('win_back', { customerId: lapsed[2] }, later(3));
    const { id } = await messageOf(decisionId);
    const set = (sql: string) =>
      asService((tx) => tx.query(`update public.outbox_messages set ${sql} where id = $1`, [id])).then(
        () => 'ok',
        (e: { code?: string }) => e.code,
      );
    expect(await set(`status = 'sent'`)).toBe('23514');
    expect(await set(`status = 'delivered', sent_at = now()`)).toBe('23514');
    expect(await set(`status = 'sending'`)).toBe('23514');
    expect(await set(`status = 'sending', sending_at = now()`)).toBe('ok');
    expect(await set(`status = 'delivered', sent_at = now(), delivered_at = now()`)).toBe('23514');
    expect(await set(`status = 'delivered', sent_at = now(), delivered_at = now(), provider = 'twilio'`)).toBe('ok');
  });
});
