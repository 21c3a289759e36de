import { beforeAll, describe, expect, it } from 'vitest';
import type { ActionType } from '@/lib/actions';
import { asService } from '@/lib/db';
import { composeDailyBrief } from '@/lib/home';
import { findCandidates } from '@/lib/insights';
import { setupTestDatabase } from '@/test/db';
import { approveDecision, changeAutonomy, getAutonomy, PROMOTE_AFTER_APPROVALS, rejectDecision, submitAction, undoDecision } from './index';
import { createSalon, type Salon } from './test-world';

setupTestDatabase();

/**
 * Undo takes a decision back: an approved proposal returns to "Needs your OK" as it was (and no longer
 * counts as an approval), an ignored one comes back, an automatic action ends undone.
 */
const NOW = new Date('2026-11-30T06:00:00Z'); // Monday 07:00 in Rome
const later = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

let salon: Salon;
let lapsed: string[];
let freedSlots: string[];
beforeAll(async () => {
  salon = await createSalon();
  const [booking, crm] = await asService((tx) => Promise.all([findCandidates(tx, salon.workspace.id, 'booking', NOW), findCandidates(tx, salon.workspace.id, 'crm', NOW)]));
  lapsed = crm.lapsed.filter((c) => c.eligible).map((c) => c.customerId);
  freedSlots = booking.freedSlots.map((s) => s.appointmentId);
});

const ws = () => salon.workspace.id;

async function propose(type: ActionType, input: Record<string, unknown>, now = NOW) {
  const outcome = await asService((tx) => submitAction(tx, { workspaceId: ws(), type, input, trigger: 'test', now }));
  if (outcome.status !== 'proposed') throw new Error(`expected a proposal, got ${JSON.stringify(outcome)}`);
  return outcome;
}

const brief = (now: Date) => composeDailyBrief(salon.owner, ws(), { now });
const winBackApprovals = async () => (await getAutonomy(salon.owner, ws())).suggestions.find((s) => s.actionType === 'win_back')?.approvals ?? 0;

describe('undo of an approval', () => {
  it('puts the card back in Needs your OK and takes the approval out of the count', async () => {
    const proposals = [];
    for (const customerId of lapsed.slice(0, PROMOTE_AFTER_APPROVALS)) proposals.push(await propose('win_back', { customerId }));
    for (const [i, p] of proposals.entries()) await approveDecision(salon.owner, ws(), p.decisionId, { argsHash: p.argsHash, now: later(i + 1) });
    expect(await winBackApprovals()).toBe(PROMOTE_AFTER_APPROVALS);
    const last = proposals.at(-1)!;
    expect((await brief(later(5))).proposals.map((p) => p.id)).not.toContain(last.decisionId);

    expect(await undoDecision(salon.owner, ws(), last.decisionId, later(6))).toEqual({ decisionId: last.decisionId, status: 'proposed' });

    const after = await brief(later(7));
    const back = after.proposals.find((p) => p.id === last.decisionId);
    // The same card, bound to the same hash: approving it again approves exactly what was shown.
    expect(back).toMatchObject({ status: 'proposed', args_hash: last.argsHash, delivery: null, undoable: false });
    expect(after.done.flatMap((g) => g.items).map((d) => d.id)).not.toContain(last.decisionId);
    // "You approved 3" was the undone one too: now there are two, and no suggestion.
    expect(await winBackApprovals()).toBe(0);
    expect((await getAutonomy(salon.owner, ws())).suggestions).toEqual([]);
  });

  it('lets the card be approved again: Done shows its new message, queued and undoable, not the cancelled one', async () => {
    const p = await propose('win_back', { customerId: lapsed[PROMOTE_AFTER_APPROVALS]! });
    await approveDecision(salon.owner, ws(), p.decisionId, { argsHash: p.argsHash, now: later(10) });
    await undoDecision(salon.owner, ws(), p.decisionId, later(11));
    const again = await approveDecision(salon.owner, ws(), p.decisionId, { argsHash: p.argsHash, now: later(12) });
    expect(again).toMatchObject({ status: 'executed', delivery: { status: 'queued', sent_at: null }, undoable: true });

    const messages = await asService((tx) => tx.query<{ status: string }>(`select status from public.outbox_messages where decision_id = $1 order by created_at`, [p.decisionId]));
    expect(messages.map((m) => m.status)).toEqual(['cancelled', 'queued']);
    const item = (await brief(later(13))).done.flatMap((g) => g.items).find((d) => d.id === p.decisionId);
    expect(item).toMatchObject({ status: 'executed', undoable: true, delivery: { status: 'queued' } });
  });

  it('of an automatic action ends it undone: there was no proposal to go back to', async () => {
    await changeAutonomy(salon.admin, ws(), { planet: 'booking', autonomy: 'auto' }, later(20));
    const outcome = await asService((tx) => submitAction(tx, { workspaceId: ws(), type: 'waitlist_offer', input: { appointmentId: freedSlots[0] }, trigger: 'test', now: later(21) }));
    expect(outcome.status).toBe('executed');
    const id = (outcome as { decisionId: string }).decisionId;
    expect(await undoDecision(salon.owner, ws(), id, later(22))).toEqual({ decisionId: id, status: 'undone' });
    expect((await brief(later(23))).proposals.map((p) => p.id)).not.toContain(id);
    await changeAutonomy(salon.admin, ws(), { planet: 'booking', autonomy: 'propose' }, later(24));
  });
});

describe('undo of an ignore', () => {
  it('brings the card back while the proposal is open, and is refused once it has expired', async () => {
    const p = await propose('win_back', { customerId: lapsed[PROMOTE_AFTER_APPROVALS + 1]! });
    await rejectDecision(salon.owner, ws(), p.decisionId, later(30));
    expect((await brief(later(31))).proposals.map((x) => x.id)).not.toContain(p.decisionId);

    // A member may not; the owner may.
    await expect(undoDecision(salon.member, ws(), p.decisionId, later(32))).rejects.toMatchObject({ status: 403 });
    expect(await undoDecision(salon.owner, ws(), p.decisionId, later(32))).toEqual({ decisionId: p.decisionId, status: 'proposed' });
    expect((await brief(later(33))).proposals.find((x) => x.id === p.decisionId)).toMatchObject({ status: 'proposed', args_hash: p.argsHash });

    await rejectDecision(salon.owner, ws(), p.decisionId, later(34));
    const expired = new Date(p.expiresAt.getTime() + 1000);
    await expect(undoDecision(salon.owner, ws(), p.decisionId, expired)).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/expired/) });
  });
});
