import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { analyzePlanetData, analyzePlanetDataSchedule } from '@/inngest/functions/analyze-planet-data';
import { deliverMessages } from '@/inngest/functions/deliver-messages';
import { RUNTIMES, startRuntime, type TestRuntime } from '@/inngest/testing';
import { approveDecision, changeAutonomy } from '@/lib/autonomy';
import { createSalon, type Salon } from '@/lib/autonomy/test-world';
import { asService } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { analyzePlanet } from './analyze';
import { setInsightStatus } from './store';

setupTestDatabase();

/**
 * A whole morning at Studio Aurora, Monday 30 November 2026 (Europe/Rome, UTC+1), on both runtimes
 * (the local executor and Inngest's engine, a salon each) with the clock moved by hand: the hourly
 * cron fans out the 06:00 analysis, insights and proposals appear, approving executes once, `auto`
 * acts alone, `off` does nothing, the kill switch stops everything, and a re-run leaves a dismissed
 * insight alone.
 */
let salon: Salon;
let runtime: TestRuntime;
const ws = () => salon.workspace.id;
const at = (iso: string) => vi.setSystemTime(new Date(iso));

const q = <T = Record<string, any>>(sql: string, params: unknown[] = []) => asService((tx) => tx.query<T>(sql, params));
const decisions = () => q(`select * from public.agent_decisions where workspace_id = $1 order by created_at, id`, [ws()]);
const insights = (date = '2026-11-30') =>
  q(`select * from public.workspace_insights where workspace_id = $1 and insight_date = $2::date order by planet, kind`, [ws(), date]);
const messages = () => q(`select * from public.outbox_messages where workspace_id = $1 order by created_at, id`, [ws()]);

describe.each(RUNTIMES)('%s', (runtimeName) => {
  beforeAll(async () => {
    salon = await createSalon('2026-11-30');
    // The evening before, the owner chose: sales may act on its own, customers (crm) are left alone.
    await changeAutonomy(salon.admin, ws(), { planet: 'sales', autonomy: 'auto' });
    await changeAutonomy(salon.admin, ws(), { planet: 'crm', autonomy: 'off' });
    vi.useFakeTimers({ toFake: ['Date'] });
    at('2026-11-30T04:59:00Z'); // 05:59 in Rome
    runtime = await startRuntime(runtimeName, { functions: [analyzePlanetDataSchedule, analyzePlanetData, deliverMessages] });
  });

  afterAll(async () => {
    await runtime.stop();
    vi.useRealTimers();
  });

  describe('a whole morning', () => {
    it('06:00: the cron analyses every planet with data; insights and proposals appear, auto acts, off stays silent', async () => {
      at('2026-11-30T05:00:00Z');
      await runtime.runUntilIdle();

      const claimed = await q<{ planet: string; outcome: any }>(`select planet, outcome from private.analysis_days where workspace_id = $1`, [ws()]);
      expect(claimed.map((c) => c.planet).sort()).toEqual(['booking', 'content', 'crm', 'marketing', 'sales', 'web']);
      expect(claimed.find((c) => c.planet === 'crm')!.outcome).toMatchObject({ status: 'skipped', reason: 'off' });

      const found = await insights();
      expect(found.map((i) => `${i.planet}:${i.kind}`)).toEqual(expect.arrayContaining(['booking:reminders_due', 'booking:freed_slots', 'sales:stale_deals']));
      expect(found.filter((i) => i.planet === 'crm')).toEqual([]);
      expect(found.every((i) => i.source === 'rules')).toBe(true);
      // What auto did is actioned; the rest waits to be read.
      expect(found.find((i) => i.kind === 'stale_deals')!.status).toBe('actioned');
      expect(found.find((i) => i.kind === 'freed_slots')!.status).toBe('new');

      const all = await decisions();
      const booking = all.filter((d) => d.planet === 'booking');
      expect(booking.length).toBeGreaterThan(0);
      expect(booking.every((d) => d.status === 'proposed' && d.tier === 'propose')).toBe(true);
      // Sales is on auto: its follow-ups ran without asking and their messages wait in the outbox.
      const sales = all.filter((d) => d.planet === 'sales');
      expect(sales.length).toBeGreaterThan(0);
      expect(sales.every((d) => d.status === 'executed' && d.tier === 'auto' && d.decided_by === null)).toBe(true);
      expect(all.filter((d) => d.planet === 'crm')).toEqual([]);
      const queued = await messages();
      expect(queued.map((m) => m.decision_id).sort()).toEqual(sales.map((d) => d.id).sort());
      // 06:00 is inside the quiet hours: nothing goes before 08:00 local.
      expect(queued.every((m) => m.status === 'queued' && new Date(m.send_after).toISOString() === '2026-11-30T07:00:00.000Z')).toBe(true);
    });

    it('07:30: approving a proposal executes it exactly once', async () => {
      at('2026-11-30T06:30:00Z');
      const [first] = (await decisions()).filter((d) => d.status === 'proposed' && d.action_type === 'booking_reminder');
      const results = await Promise.allSettled([
        approveDecision(salon.owner, ws(), first!.id, { argsHash: first!.args_hash }),
        approveDecision(salon.owner, ws(), first!.id, { argsHash: first!.args_hash }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const sent = (await messages()).filter((m) => m.decision_id === first!.id);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ body: first!.args.message, recipient: first!.args.to });
      const [appointment] = await q(`select reminder_sent_at from public.appointments where id = $1`, [first!.args.appointmentId]);
      expect(appointment!.reminder_sent_at).not.toBeNull();
    });

    it('08:00: the outbox pass finds what is due and, with no SMS or email provider connected, leaves it queued', async () => {
      at('2026-11-30T07:00:30Z');
      await runtime.runUntilIdle();
      const all = await messages();
      expect(all.length).toBeGreaterThan(1);
      expect(all.every((m) => m.status === 'queued' && m.sent_at === null)).toBe(true);
    });

    it('a re-run the same day duplicates nothing and leaves dismissed and seen insights as they are', async () => {
      at('2026-11-30T09:00:00Z');
      const before = await insights();
      const dismissed = before.find((i) => i.kind === 'freed_slots')!;
      const seen = before.find((i) => i.status === 'new' && i.id !== dismissed.id)!;
      await setInsightStatus(salon.member, ws(), dismissed.id, 'dismissed');
      await setInsightStatus(salon.member, ws(), seen.id, 'seen');
      const [dismissedRow] = await q(`select * from public.workspace_insights where id = $1`, [dismissed.id]);
      const decisionsBefore = await decisions();

      // The cron fires again at 10:00 local: the day is claimed already, so nothing is sent.
      await runtime.runUntilIdle();
      expect(await q(`select 1 from private.analysis_days where workspace_id = $1 and local_date = '2026-11-30'`, [ws()])).toHaveLength(6);
      // A forced re-run of every planet, as a replay of the 06:00 run.
      for (const planet of ['booking', 'sales', 'web', 'content', 'marketing'] as const) {
        await analyzePlanet({ workspaceId: ws(), planet, localDate: '2026-11-30', now: new Date('2026-11-30T05:00:00Z') });
      }
      const after = await insights();
      expect(after.map((i) => i.id).sort()).toEqual(before.map((i) => i.id).sort());
      expect(after.find((i) => i.id === dismissed.id)).toEqual(dismissedRow);
      expect(after.find((i) => i.id === seen.id)!.status).toBe('seen');
      // Nothing proposed twice: every subject already has its decision.
      expect((await decisions()).map((d) => d.id)).toEqual(decisionsBefore.map((d) => d.id));
    });

    it('the kill switch stops everything: queued messages, approvals and the next morning', async () => {
      at('2026-11-30T10:00:00Z');
      const [pending] = (await decisions()).filter((d) => d.status === 'proposed' && d.action_type === 'booking_reminder');
      const [another] = (await decisions()).filter((d) => d.status === 'proposed' && d.id !== pending!.id);
      await approveDecision(salon.owner, ws(), another!.id, { argsHash: another!.args_hash });
      expect((await messages()).filter((m) => m.decision_id === another!.id).map((m) => m.status)).toEqual(['queued']);

      await changeAutonomy(salon.owner, ws(), { paused: true });
      expect((await messages()).filter((m) => m.decision_id === another!.id).map((m) => m.status)).toEqual(['cancelled']);
      await expect(approveDecision(salon.owner, ws(), pending!.id, { argsHash: pending!.args_hash })).rejects.toMatchObject({ status: 409 });
      expect((await messages()).filter((m) => m.decision_id === pending!.id)).toEqual([]);

      // Tuesday 06:00: the analysis is claimed but every planet is skipped.
      const count = (await decisions()).length;
      at('2026-12-01T05:00:00Z');
      await runtime.runUntilIdle();
      const tuesday = await q<{ outcome: any }>(`select outcome from private.analysis_days where workspace_id = $1 and local_date = '2026-12-01'`, [ws()]);
      expect(tuesday.length).toBeGreaterThan(0);
      expect(tuesday.every((r) => r.outcome.status === 'skipped' && r.outcome.reason === 'paused')).toBe(true);
      expect(await insights('2026-12-01')).toEqual([]);
      expect(await decisions()).toHaveLength(count);
    });
  });
});
