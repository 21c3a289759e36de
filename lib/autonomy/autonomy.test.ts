import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashArgs, type ActionType } from '@/lib/actions';
import { runAgent, toolsFor } from '@/lib/agent';
import { startFakeModelServer, useFakeModelEnv, type FakeModelServer } from '@/lib/agent/testing';
import { asService } from '@/lib/db';
import { findCandidates } from '@/lib/insights';
import { workspacePolicy } from '@/lib/policy';
import { setupTestDatabase } from '@/test/db';
import {
  approveDecision,
  changeAutonomy,
  expireDecisions,
  getAutonomy,
  PROMOTE_AFTER_APPROVALS,
  rejectDecision,
  submitAction,
  undoDecision,
  type SubmitOutcome,
} from './index';
import { createSalon, type Salon } from './test-world';

setupTestDatabase();

// Monday 30 November 2026, 07:00 in Rome: the demo data's "now".
const NOW = new Date('2026-11-30T06:00:00Z');
const later = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

let salon: Salon;
let candidates: Awaited<ReturnType<typeof findCandidates>>[];

beforeAll(async () => {
  salon = await createSalon();
  candidates = await asService((tx) => Promise.all(['booking', 'crm', 'sales'].map((p) => findCandidates(tx, salon.workspace.id, p as never, NOW))));
});

const ws = () => salon.workspace.id;
const lapsed = () => candidates[1]!.lapsed.filter((c) => c.eligible);
const reminders = () => candidates[0]!.remindersDue;

async function submit(type: ActionType, input: Record<string, unknown>, now = NOW): Promise<SubmitOutcome> {
  return asService((tx) => submitAction(tx, { workspaceId: ws(), type, input, trigger: 'test', now }));
}

async function proposed(type: ActionType, input: Record<string, unknown>, now = NOW) {
  const outcome = await submit(type, input, now);
  if (outcome.status !== 'proposed') throw new Error(`expected a proposal, got ${JSON.stringify(outcome)}`);
  return outcome;
}

const decision = (id: string) =>
  asService((tx) => tx.query<Record<string, any>>(`select * from public.agent_decisions where id = $1`, [id])).then((r) => r[0]!);
const messagesOf = (id: string) =>
  asService((tx) => tx.query<Record<string, any>>(`select * from public.outbox_messages where decision_id = $1`, [id]));

async function rejects(promise: Promise<unknown>, status: number, pattern?: RegExp) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e as { status?: number; message: string },
  );
  expect(error, 'expected a failure').not.toBeNull();
  expect(error!.status).toBe(status);
  if (pattern) expect(error!.message).toMatch(pattern);
}

describe('approval is bound to the exact proposal', () => {
  it('executes what was proposed, once, with the message shown', async () => {
    const p = await proposed('booking_reminder', { appointmentId: reminders()[0]!.appointmentId });
    const before = await decision(p.decisionId);
    expect(before.args_hash).toBe(hashArgs('booking_reminder', before.args));

    const result = await approveDecision(salon.owner, ws(), p.decisionId, { argsHash: p.argsHash, now: later(5) });
    expect(result.status).toBe('executed');
    const after = await decision(p.decisionId);
    expect(after).toMatchObject({ status: 'executed', decided_by: salon.owner.id, tier: 'propose' });
    const [message] = await messagesOf(p.decisionId);
    expect(message).toMatchObject({ status: 'queued', body: before.args.message, recipient: before.args.to });
    const [appointment] = await asService((tx) => tx.query<{ reminder_sent_at: Date }>(`select reminder_sent_at from public.appointments where id = $1`, [before.args.appointmentId]));
    expect(appointment!.reminder_sent_at).toEqual(later(5));
  });

  it('refuses an approval naming another hash, and runs nothing', async () => {
    const p = await proposed('booking_reminder', { appointmentId: reminders()[1]!.appointmentId });
    await rejects(approveDecision(salon.owner, ws(), p.decisionId, { argsHash: 'f'.repeat(64), now: later(5) }), 409, /not the proposal you were shown/);
    expect((await decision(p.decisionId)).status).toBe('proposed');
    expect(await messagesOf(p.decisionId)).toEqual([]);
  });

  it('fails a proposal whose stored arguments were changed after it was made, sending nothing', async () => {
    const p = await proposed('booking_reminder', { appointmentId: reminders()[2]!.appointmentId });
    await asService((tx) => tx.query(`update public.agent_decisions set args = jsonb_set(args, '{to}', '"+39 000 000 0000"') where id = $1`, [p.decisionId]));
    await rejects(approveDecision(salon.owner, ws(), p.decisionId, { argsHash: p.argsHash, now: later(5) }), 409, /changed after it was made/);
    expect(await decision(p.decisionId)).toMatchObject({ status: 'failed' });
    expect(await messagesOf(p.decisionId)).toEqual([]);
  });

  it('executes exactly once when two approvals race', async () => {
    const p = await proposed('win_back', { customerId: lapsed()[0]!.customerId });
    const results = await Promise.allSettled([
      approveDecision(salon.owner, ws(), p.decisionId, { argsHash: p.argsHash, now: later(5) }),
      approveDecision(salon.admin, ws(), p.decisionId, { argsHash: p.argsHash, now: later(5) }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(failed.reason.status).toBe(409);
    expect(await messagesOf(p.decisionId)).toHaveLength(1);
    // A late third approval finds it done.
    await rejects(approveDecision(salon.owner, ws(), p.decisionId, { argsHash: p.argsHash, now: later(6) }), 409, /already approved and carried out/);
  });

  it('re-checks the world at execution: a reminder for an appointment cancelled since fails cleanly', async () => {
    const target = reminders()[3]!;
    const p = await proposed('booking_reminder', { appointmentId: target.appointmentId });
    await asService((tx) => tx.query(`update public.appointments set status = 'cancelled', cancelled_at = $2 where id = $1`, [target.appointmentId, later(1).toISOString()]));
    await rejects(approveDecision(salon.owner, ws(), p.decisionId, { argsHash: p.argsHash, now: later(5) }), 409, /cancelled/);
    expect(await decision(p.decisionId)).toMatchObject({ status: 'failed', error: 'The appointment was cancelled.' });
    expect(await messagesOf(p.decisionId)).toEqual([]);
  });

  it('lets only the owner and admins decide', async () => {
    const p = await proposed('win_back', { customerId: lapsed()[1]!.customerId });
    await rejects(approveDecision(salon.member, ws(), p.decisionId, { argsHash: p.argsHash, now: later(5) }), 403);
    await rejects(rejectDecision(salon.member, ws(), p.decisionId, later(5)), 403);
    expect((await decision(p.decisionId)).status).toBe('proposed');
    await rejectDecision(salon.admin, ws(), p.decisionId, later(5));
    expect(await decision(p.decisionId)).toMatchObject({ status: 'rejected', decided_by: salon.admin.id });
    await rejects(approveDecision(salon.owner, ws(), p.decisionId, { argsHash: p.argsHash, now: later(6) }), 409, /already ignored/);
  });

  it('proposes nothing twice: the same action on the same subject is one decision', async () => {
    const first = await submit('deal_follow_up', { dealId: candidates[2]!.staleDeals.find((d) => d.hasCustomer)!.dealId });
    const again = await submit('deal_follow_up', { dealId: candidates[2]!.staleDeals.find((d) => d.hasCustomer)!.dealId });
    expect(first.status).toBe('proposed');
    expect(again).toMatchObject({ status: 'duplicate', decisionId: (first as { decisionId: string }).decisionId, existing: 'proposed' });
  });
});

describe('expiry is terminal', () => {
  it('a late approval fails cleanly, marks the proposal expired and never executes', async () => {
    const p = await proposed('win_back', { customerId: lapsed()[2]!.customerId });
    const late = new Date(p.expiresAt.getTime() + 1000);
    await rejects(approveDecision(salon.owner, ws(), p.decisionId, { argsHash: p.argsHash, now: late }), 410, /expired/);
    expect(await decision(p.decisionId)).toMatchObject({ status: 'expired', executed_at: null });
    expect(await messagesOf(p.decisionId)).toEqual([]);
    // Expired stays expired.
    await rejects(approveDecision(salon.owner, ws(), p.decisionId, { argsHash: p.argsHash, now: NOW }), 409, /expired/);
  });

  it('the hourly sweep closes proposals past their expiry', async () => {
    const p = await proposed('booking_reminder', { appointmentId: reminders()[4]!.appointmentId });
    await expireDecisions(new Date(p.expiresAt.getTime() - 1000));
    expect((await decision(p.decisionId)).status).toBe('proposed');
    expect(await expireDecisions(p.expiresAt)).toBeGreaterThanOrEqual(1);
    expect((await decision(p.decisionId)).status).toBe('expired');
  });
});

describe('undo', () => {
  it('cancels the queued message, reverts what the action changed and puts the proposal back', async () => {
    const slot = candidates[0]!.freedSlots[0]!;
    const p = await proposed('waitlist_offer', { appointmentId: slot.appointmentId });
    await approveDecision(salon.owner, ws(), p.decisionId, { argsHash: p.argsHash, now: later(10) });
    const { args } = await decision(p.decisionId);
    const entry = () =>
      asService((tx) => tx.query<{ status: string; notified_at: Date | null }>(`select status, notified_at from public.waitlist_entries where id = $1`, [args.waitlistEntryId])).then((r) => r[0]!);
    expect(await entry()).toMatchObject({ status: 'offered', notified_at: later(10) });

    expect(await undoDecision(salon.owner, ws(), p.decisionId, later(10.2))).toMatchObject({ status: 'proposed' });
    expect(await decision(p.decisionId)).toMatchObject({ status: 'proposed', decided_by: null, executed_at: null, result: null, undone_by: salon.owner.id });
    expect((await messagesOf(p.decisionId)).map((m) => m.status)).toEqual(['cancelled']);
    expect(await entry()).toMatchObject({ status: 'waiting', notified_at: null });
    await rejects(undoDecision(salon.owner, ws(), p.decisionId, later(11)), 409);
  });

  it('is refused once a provider has the message', async () => {
    const p = await proposed('win_back', { customerId: lapsed()[3]!.customerId });
    await approveDecision(salon.owner, ws(), p.decisionId, { argsHash: p.argsHash, now: later(20) });
    const { deliverDueMessages } = await import('@/lib/actions');
    // 07:20 in Rome: the message waits for the end of the quiet hours (08:00); after them no provider is
    // connected to take it, so it is still queued, never "sent".
    await asService((tx) => deliverDueMessages(tx, later(25)));
    await asService((tx) => deliverDueMessages(tx, later(60)));
    expect((await messagesOf(p.decisionId))[0]!.status).toBe('queued');
    // What a provider will do when it takes it (lib/actions/outbox.ts): from then on it cannot be undone.
    await asService((tx) => tx.query(`update public.outbox_messages set status = 'sending', sending_at = now() where decision_id = $1`, [p.decisionId]));
    await rejects(undoDecision(salon.owner, ws(), p.decisionId, later(61)), 409, /already with the provider/);
    expect((await decision(p.decisionId)).status).toBe('executed');
  });
});

describe('promotion after three approvals', () => {
  it('suggests automatic after the third approval of a kind, never switches on its own, and honours "not now"', async () => {
    // A fresh salon, so earlier approvals in this file do not count.
    const own = await createSalon('2026-11-30', 'Studio Promo');
    const found = await asService((tx) => findCandidates(tx, own.workspace.id, 'booking', NOW));
    const approveReminder = async (i: number) => {
      const outcome = await asService((tx) =>
        submitAction(tx, { workspaceId: own.workspace.id, type: 'booking_reminder', input: { appointmentId: found.remindersDue[i]!.appointmentId }, trigger: 'test', now: NOW }),
      );
      if (outcome.status !== 'proposed') throw new Error(JSON.stringify(outcome));
      return approveDecision(own.owner, own.workspace.id, outcome.decisionId, { argsHash: outcome.argsHash, now: later(i) });
    };
    for (let i = 0; i < PROMOTE_AFTER_APPROVALS - 1; i++) expect((await approveReminder(i)).suggestion).toBeNull();
    const third = await approveReminder(PROMOTE_AFTER_APPROVALS - 1);
    expect(third.suggestion).toEqual({ actionType: 'booking_reminder', planet: 'booking', approvals: 3 });
    // Suggested, not switched: the next reminder is still only proposed.
    expect((await getAutonomy(own.owner, own.workspace.id)).actions.find((a) => a.actionType === 'booking_reminder')!.tier).toBe('propose');

    // "Not now" hides it until three more approvals.
    await changeAutonomy(own.owner, own.workspace.id, { actionType: 'booking_reminder', suggestion: 'dismiss' }, later(10));
    expect((await getAutonomy(own.owner, own.workspace.id)).suggestions).toEqual([]);

    // "Yes": the action type becomes automatic on a planet still at propose; a member may not say yes.
    await rejects(changeAutonomy(own.member, own.workspace.id, { actionType: 'booking_reminder', suggestion: 'accept' }), 403);
    const settings = await changeAutonomy(own.owner, own.workspace.id, { actionType: 'booking_reminder', suggestion: 'accept' }, later(11));
    expect(settings.actions.find((a) => a.actionType === 'booking_reminder')).toMatchObject({ auto: true, tier: 'auto' });
    expect(settings.planets.find((p) => p.planet === 'booking')!.autonomy).toBe('propose');
    const next = await asService((tx) =>
      submitAction(tx, { workspaceId: own.workspace.id, type: 'booking_reminder', input: { appointmentId: found.remindersDue[3]!.appointmentId }, trigger: 'test', now: later(12) }),
    );
    expect(next.status).toBe('executed');
    expect((await decision((next as { decisionId: string }).decisionId)).tier).toBe('auto');
    // The waitlist offer on the same planet still asks.
    const offer = await asService((tx) =>
      submitAction(tx, { workspaceId: own.workspace.id, type: 'waitlist_offer', input: { appointmentId: found.freedSlots[0]!.appointmentId }, trigger: 'test', now: later(12) }),
    );
    expect(offer.status).toBe('proposed');
  });
});

describe('kill switches', () => {
  it('a paused planet refuses approvals (the proposal keeps waiting) and proposes nothing new', async () => {
    const p = await proposed('win_back', { customerId: lapsed()[4]!.customerId });
    await changeAutonomy(salon.admin, ws(), { planet: 'crm', paused: true }, later(30));
    await rejects(approveDecision(salon.owner, ws(), p.decisionId, { argsHash: p.argsHash, now: later(31) }), 409, /paused/);
    expect((await decision(p.decisionId)).status).toBe('proposed');
    expect(await submit('win_back', { customerId: lapsed()[5]?.customerId ?? lapsed()[4]!.customerId })).toMatchObject({ status: 'skipped', tier: 'paused' });
    await changeAutonomy(salon.admin, ws(), { planet: 'crm', paused: false }, later(32));
    expect((await approveDecision(salon.owner, ws(), p.decisionId, { argsHash: p.argsHash, now: later(33) })).status).toBe('executed');
  });

  it('the workspace kill switch cancels what is still queued and stops delivery', async () => {
    const queued = await asService((tx) => tx.query<{ id: string }>(`select id from public.outbox_messages where workspace_id = $1 and status = 'queued'`, [ws()]));
    expect(queued.length).toBeGreaterThan(0);
    const settings = await changeAutonomy(salon.owner, ws(), { paused: true }, later(40));
    expect(settings.paused).toBe(true);
    expect(settings.actions.every((a) => a.tier === 'paused')).toBe(true);
    const after = await asService((tx) => tx.query<{ status: string }>(`select status from public.outbox_messages where id = any ($1::uuid[])`, [queued.map((q) => q.id)]));
    expect(after.every((m) => m.status === 'cancelled')).toBe(true);
    await changeAutonomy(salon.owner, ws(), { paused: false }, later(41));
  });

  it('only the owner and admins change autonomy', async () => {
    await rejects(changeAutonomy(salon.member, ws(), { planet: 'sales', autonomy: 'auto' }), 403);
    await rejects(changeAutonomy(salon.member, ws(), { paused: true }), 403);
    expect((await getAutonomy(salon.member, ws())).planets.find((p) => p.planet === 'sales')!.autonomy).toBe('propose');
  });
});

describe('the write gate for agents', () => {
  let fake: FakeModelServer;
  let restore: () => void;
  beforeAll(async () => {
    fake = await startFakeModelServer();
    restore = useFakeModelEnv({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url, AGENT_MAX_RETRIES: '0' });
  });
  afterAll(async () => {
    restore();
    await fake.close();
  });
  afterEach(() => fake.reset());

  const agentRun = (own: Salon, tool: string, input: unknown) => {
    fake.script({ toolCalls: [{ name: tool, input }] }, { toolCalls: [{ name: 'finish', input: { summary: 'done' } }] });
    return runAgent({ system: 'crm agent', firstMessage: 'go', tools: toolsFor({ planet: 'crm' }), workspaceId: own.workspace.id, policy: workspacePolicy, planet: 'crm', trigger: 'test' });
  };

  it('records a write at `propose` as a proposal bound to the run, runs it at `auto`, refuses it at `off`', async () => {
    const own = await createSalon('2026-11-30', 'Studio Agent');
    const { lapsed: customers } = await asService((tx) => findCandidates(tx, own.workspace.id, 'crm', NOW));
    const eligible = customers.filter((c) => c.eligible);
    const result = await agentRun(own, 'win_back_customer', { customerId: eligible[0]!.customerId });
    expect(result.proposals).toHaveLength(1);
    const [row] = await asService((tx) => tx.query<Record<string, any>>(`select * from public.agent_decisions where agent_run_id = $1`, [result.runId]));
    expect(row).toMatchObject({ status: 'proposed', tier: 'propose', action_type: 'win_back', trigger: 'agent:win_back_customer' });
    expect(row!.args.customerId).toBe(eligible[0]!.customerId);

    await changeAutonomy(own.admin, own.workspace.id, { planet: 'crm', autonomy: 'auto' });
    const auto = await agentRun(own, 'win_back_customer', { customerId: eligible[1]!.customerId });
    expect(auto.proposals).toHaveLength(0);
    const [done] = await asService((tx) => tx.query<Record<string, any>>(`select * from public.agent_decisions where agent_run_id = $1`, [auto.runId]));
    expect(done).toMatchObject({ status: 'executed', tier: 'auto' });
    expect(await messagesOf(done!.id)).toHaveLength(1);

    await changeAutonomy(own.admin, own.workspace.id, { planet: 'crm', autonomy: 'off' });
    const off = await agentRun(own, 'win_back_customer', { customerId: eligible[2]!.customerId });
    expect(off.toolCalls[0]).toMatchObject({ ok: false, note: 'denied' });
    expect(await asService((tx) => tx.query(`select 1 from public.agent_decisions where agent_run_id = $1`, [off.runId]))).toEqual([]);
  });
});
