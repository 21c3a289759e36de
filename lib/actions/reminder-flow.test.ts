import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bookingReminderSmart } from '@/inngest/functions/booking-reminder-smart';
import { RUNTIMES, startRuntime, type Run, type TestRuntime } from '@/inngest/testing';
import { changeAutonomy } from '@/lib/autonomy';
import { createSalon, type Salon } from '@/lib/autonomy/test-world';
import { asService } from '@/lib/db';
import { sendEvent } from '@/lib/events';
import { composeDailyBrief } from '@/lib/home';
import { setupTestDatabase } from '@/test/db';

setupTestDatabase();

/**
 * booking-reminder-smart on both runtimes (the local executor and Inngest's engine), the clock moved by
 * hand: when it sleeps until (24 h before, out of the quiet hours, in the workspace's zone), what it
 * does at that instant, and that replays, cancellations and moves never produce a second or a stale
 * reminder. Each runtime gets a salon of its own.
 */
let salon: Salon;
let refs: { customerId: string; serviceId: string; staffId: string };
let runtime: TestRuntime;
const ws = () => salon.workspace.id;
const at = (iso: string) => vi.setSystemTime(new Date(iso));
const q = <T = Record<string, any>>(sql: string, params: unknown[] = []) => asService((tx) => tx.query<T>(sql, params));

/** Books an appointment at `startsAt`, made at the current (fake) time, and emits booking/created. */
async function book(startsAt: string, workspaceId = ws(), ids = refs): Promise<string> {
  return asService(async (tx) => {
    const [a] = await tx.query<{ id: string }>(
      `insert into public.appointments (workspace_id, customer_id, service_id, staff_id, starts_at, ends_at, price_cents, created_at)
       values ($1, $2, $3, $4, $5, $5::timestamptz + interval '45 minutes', 3800, $6) returning id`,
      [workspaceId, ids.customerId, ids.serviceId, ids.staffId, startsAt, new Date().toISOString()],
    );
    await sendEvent({ name: 'booking/created', data: { workspaceId, appointmentId: a!.id } }, tx);
    return a!.id;
  });
}

const run = () => runtime.runUntilIdle();
const runsOf = async (appointmentId: string): Promise<Array<Run & { output: any }>> =>
  (await runtime.runs('booking-reminder-smart')).filter((r) => r.event.data.appointmentId === appointmentId);
const decisionsOf = (appointmentId: string) => q(`select * from public.agent_decisions where args->>'appointmentId' = $1`, [appointmentId]);
const messagesOf = (appointmentId: string) =>
  q(`select m.* from public.outbox_messages m join public.agent_decisions d on d.id = m.decision_id where d.args->>'appointmentId' = $1`, [appointmentId]);

describe.each(RUNTIMES)('%s', (runtimeName) => {
  beforeAll(async () => {
    salon = await createSalon('2026-11-30');
    // A customer who agreed to messages, and a stylist with an empty diary (no overlaps with demo data).
    const [row] = await q<{ customer_id: string; service_id: string; staff_id: string }>(
      `with c as (insert into public.customers (workspace_id, name, phone, consent_messages) values ($1, 'Lucia Neri', '+39 333 111 2222', true) returning id),
            st as (insert into public.staff (workspace_id, name) values ($1, 'Nuova Stilista') returning id)
       select c.id as customer_id, (select id from public.services where workspace_id = $1 order by name limit 1) as service_id, st.id as staff_id from c, st`,
      [salon.workspace.id],
    );
    refs = { customerId: row!.customer_id, serviceId: row!.service_id, staffId: row!.staff_id };
    vi.useFakeTimers({ toFake: ['Date'] });
    runtime = await startRuntime(runtimeName, { functions: [bookingReminderSmart] });
  });

  afterAll(async () => {
    await runtime.stop();
    vi.useRealTimers();
  });

  describe('when the reminder is due', () => {
    it('sleeps until 24 hours before the appointment', async () => {
      at('2026-11-23T10:00:00Z');
      const id = await book('2026-12-01T09:00:00Z'); // Tuesday 10:00 in Rome
      await run();
      expect(await runsOf(id)).toMatchObject([{ status: 'sleeping', wakeAt: new Date('2026-11-30T09:00:00Z') }]);
    });

    it('moves a reminder that falls in the quiet hours to 08:00 local', async () => {
      at('2026-11-23T10:00:00Z');
      // 07:30 in Rome → 07:30 the day before is quiet → 08:00 that morning (07:00Z).
      const early = await book('2026-12-02T06:30:00Z');
      // 21:30 in Rome → 21:30 the evening before is quiet → 08:00 on the day itself, 13.5 hours ahead.
      const late = await book('2026-12-03T20:30:00Z');
      await run();
      expect((await runsOf(early))[0]!.wakeAt).toEqual(new Date('2026-12-01T07:00:00Z'));
      expect((await runsOf(late))[0]!.wakeAt).toEqual(new Date('2026-12-03T07:00:00Z'));
    });

    it('reads the quiet hours in the workspace’s own time zone, across a DST change', async () => {
      const ny = await createSalon('2026-11-30', 'Studio Brooklyn');
      await asService((tx) => tx.query(`update public.workspaces set time_zone = 'America/New_York' where id = $1`, [ny.workspace.id]));
      const [ids] = await q<{ customerId: string; serviceId: string; staffId: string }>(
        `with c as (insert into public.customers (workspace_id, name, phone, consent_messages) values ($1, 'Ann Lee', '+1 212 555 0100', true) returning id),
              st as (insert into public.staff (workspace_id, name) values ($1, 'Night Shift') returning id)
         select c.id as "customerId", (select id from public.services where workspace_id = $1 limit 1) as "serviceId", st.id as "staffId" from c, st`,
        [ny.workspace.id],
      );
      at('2026-02-20T12:00:00Z');
      // Monday 9 March 2026 07:30 EDT (11:30Z); DST began at 02:00 on Sunday the 8th. 24 h before is 11:30Z
      // on the 8th, 07:30 EDT: quiet, so 08:00 EDT that morning — 12:00Z, not the 13:00Z of standard time.
      const id = await book('2026-03-09T11:30:00Z', ny.workspace.id, ids!);
      await run();
      expect((await runsOf(id))[0]!.wakeAt).toEqual(new Date('2026-03-08T12:00:00Z'));
    });

    it('sends nothing for a booking made less than a day ahead', async () => {
      at('2026-11-30T12:00:00Z');
      const id = await book('2026-12-01T10:00:00Z');
      await run();
      expect(await runsOf(id)).toMatchObject([{ status: 'completed', output: { skipped: 'booked_within_a_day' } }]);
    });
  });

  describe('at the instant', () => {
    it('with reminders automatic: sends once, marks the appointment and shows it under Done', async () => {
      await changeAutonomy(salon.owner, ws(), { actionType: 'booking_reminder', auto: true });
      at('2026-11-25T10:00:00Z');
      const id = await book('2026-12-04T10:00:00Z'); // Friday 11:00 in Rome
      await run();
      at('2026-12-03T10:00:00Z');
      await run();
      const [decision] = await decisionsOf(id);
      expect(decision).toMatchObject({ status: 'executed', tier: 'auto', trigger: 'event:booking/created', action_type: 'booking_reminder' });
      expect(await messagesOf(id)).toMatchObject([{ status: 'queued', recipient: '+39 333 111 2222', channel: 'sms' }]);
      const [appointment] = await q(`select reminder_sent_at from public.appointments where id = $1`, [id]);
      expect(appointment!.reminder_sent_at).toEqual(new Date('2026-12-03T10:00:00Z'));
      const brief = await composeDailyBrief(salon.owner, ws());
      const group = brief.done.find((g) => g.actionType === 'booking_reminder')!;
      expect(group.items.map((i) => i.id)).toContain(decision!.id);
      await changeAutonomy(salon.owner, ws(), { actionType: 'booking_reminder', auto: false });
    });

    it('with the booking planet at propose: proposes it for an OK, until 2 hours before', async () => {
      at('2026-11-25T10:00:00Z');
      const id = await book('2026-12-04T12:00:00Z');
      await run();
      at('2026-12-03T12:00:00Z');
      await run();
      expect(await decisionsOf(id)).toMatchObject([{ status: 'proposed', tier: 'propose', expires_at: new Date('2026-12-04T10:00:00Z') }]);
      expect(await messagesOf(id)).toEqual([]);
    });

    it('is idempotent under replay: the same event twice, and a replay after it was sent, make one reminder', async () => {
      await changeAutonomy(salon.owner, ws(), { actionType: 'booking_reminder', auto: true });
      at('2026-11-25T10:00:00Z');
      const id = await book('2026-12-04T14:00:00Z');
      // The same booking announced twice (a retried request, a duplicated delivery).
      await asService((tx) => sendEvent({ name: 'booking/created', data: { workspaceId: ws(), appointmentId: id } }, tx));
      await run();
      expect((await runsOf(id)).map((r) => r.status)).toEqual(['sleeping', 'sleeping']);
      at('2026-12-03T14:00:00Z');
      await run();
      expect(await decisionsOf(id)).toHaveLength(1);
      expect(await messagesOf(id)).toHaveLength(1);
      expect((await runsOf(id)).map((r) => r.output.status ?? r.output.skipped).sort()).toEqual(['already_sent', 'executed']);
      // Announced again after the reminder went out: the plan sees it was sent.
      await asService((tx) => sendEvent({ name: 'booking/created', data: { workspaceId: ws(), appointmentId: id } }, tx));
      await run();
      expect((await runsOf(id)).at(-1)).toMatchObject({ status: 'completed', output: { skipped: 'already_sent' } });
      expect(await messagesOf(id)).toHaveLength(1);
      await changeAutonomy(salon.owner, ws(), { actionType: 'booking_reminder', auto: false });
    });

    it('is skipped when the appointment was cancelled or moved while it slept', async () => {
      at('2026-11-25T10:00:00Z');
      const cancelled = await book('2026-12-05T09:00:00Z');
      const moved = await book('2026-12-05T11:00:00Z');
      await run();
      await q(`update public.appointments set status = 'cancelled', cancelled_at = '2026-11-26T10:00:00Z' where id = $1`, [cancelled]);
      await q(`update public.appointments set starts_at = starts_at + interval '1 day', ends_at = ends_at + interval '1 day' where id = $1`, [moved]);
      at('2026-12-04T11:00:00Z');
      await run();
      expect((await runsOf(cancelled))[0]).toMatchObject({ status: 'completed', output: { skipped: 'cancelled' } });
      expect((await runsOf(moved))[0]).toMatchObject({ status: 'completed', output: { skipped: 'rescheduled' } });
      expect([...(await decisionsOf(cancelled)), ...(await decisionsOf(moved))]).toEqual([]);
    });
  });
});
