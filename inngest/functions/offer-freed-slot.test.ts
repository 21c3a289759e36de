import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeAutonomy } from '@/lib/autonomy';
import { createSalon, type Salon } from '@/lib/autonomy/test-world';
import { bookAppointment, changeAppointment } from '@/lib/bookings';
import { asService } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { RUNTIMES, startRuntime } from '../testing';
import { offerFreedSlot } from './offer-freed-slot';

setupTestDatabase();

const q = <T = Record<string, any>>(sql: string, params: unknown[] = []) => asService((tx) => tx.query<T>(sql, params));

// Monday 30 November 2026, 07:00 in Rome (the demo salon opens Tuesday to Saturday, 09:00–19:00).
const NOW = new Date('2026-11-30T06:00:00Z');

describe.each(RUNTIMES)('%s', (runtimeName) => {
  let salon: Salon;
  let refs: { customerId: string; serviceId: string; staffId: string };
  const ws = () => salon.workspace.id;
  const booking = (startsAt: string) => ({ customerId: refs.customerId, serviceId: refs.serviceId, staffId: refs.staffId, startsAt });

  beforeAll(async () => {
    salon = await createSalon('2026-11-30');
    // A customer who agreed to messages and a stylist with an empty diary.
    const [row] = await q<{ customer_id: string; service_id: string; staff_id: string }>(
      `with c as (insert into public.customers (workspace_id, name, phone, consent_messages) values ($1, 'Lucia Neri', '+39 333 111 2222', true) returning id),
            st as (insert into public.staff (workspace_id, name) values ($1, 'Nuova Stilista') returning id),
            s as (select id from public.services where workspace_id = $1 order by name limit 1)
       select c.id as customer_id, s.id as service_id, st.id as staff_id from c, st, s`,
      [ws()],
    );
    refs = { customerId: row!.customer_id, serviceId: row!.service_id, staffId: row!.staff_id };
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterAll(() => vi.useRealTimers());

  it('a cancellation offers the freed slot to the first fitting waitlist entry: proposed at propose, sent at auto, once', async () => {
    const runtime = await startRuntime(runtimeName, { functions: [offerFreedSlot] });
    try {
      // Two customers wait for this service on Thursday; the earlier entry is first in line.
      const [first, second] = await q<{ id: string }>(
        `with c as (insert into public.customers (workspace_id, name, phone, consent_messages)
                    values ($1, 'Anna Prima', '+39 333 000 0001', true), ($1, 'Bea Seconda', '+39 333 000 0002', true) returning id, name)
         insert into public.waitlist_entries (workspace_id, customer_id, service_id, window_start, window_end, created_at)
         select $1, c.id, $2, '2026-12-10T08:00:00Z', '2026-12-10T18:00:00Z',
                case when c.name = 'Anna Prima' then '2026-11-20T10:00:00Z'::timestamptz else '2026-11-21T10:00:00Z'::timestamptz end
           from c order by c.name returning id`,
        [ws(), refs.serviceId],
      );
      const a = await bookAppointment(salon.owner, ws(), booking('2026-12-10T10:00:00+01:00'));
      await changeAppointment(salon.member, ws(), a.id, { status: 'cancelled' });
      await runtime.runUntilIdle();
      const offers = () => q(`select status, tier, trigger, args from public.agent_decisions where action_type = 'waitlist_offer' and args->>'appointmentId' = $1`, [a.id]);
      expect(await offers()).toMatchObject([{ status: 'proposed', tier: 'propose', trigger: 'event:booking/cancelled', args: { waitlistEntryId: first!.id } }]);

      await changeAutonomy(salon.owner, ws(), { planet: 'booking', autonomy: 'auto' });
      const b = await bookAppointment(salon.owner, ws(), booking('2026-12-10T14:00:00+01:00'));
      await changeAppointment(salon.owner, ws(), b.id, { status: 'cancelled' });
      await runtime.runUntilIdle();
      const [sent] = await q(`select status, tier, args, result from public.agent_decisions where action_type = 'waitlist_offer' and args->>'appointmentId' = $1`, [b.id]);
      // Anna's first offer still waits for an OK (she was not written to), so she is still first in line.
      expect(sent).toMatchObject({ status: 'executed', tier: 'auto', args: { waitlistEntryId: first!.id } });
      const [entries] = await q(`select array_agg(status order by created_at) as statuses from public.waitlist_entries where id = any($1::uuid[])`, [[first!.id, second!.id]]);
      expect(entries!.statuses).toEqual(['offered', 'waiting']);
      const messages = await q(`select recipient, status from public.outbox_messages where id = any($1::uuid[])`, [sent!.result.messageIds]);
      expect(messages).toHaveLength(1);
      // Each cancellation made one run, whose output is the decision it took.
      const outcomes = Object.fromEntries((await runtime.runs('offer-freed-slot')).map((r) => [r.event.data.appointmentId, [r.status, (r.output as { status?: string }).status]]));
      expect(outcomes).toEqual({ [a.id]: ['completed', 'proposed'], [b.id]: ['completed', 'executed'] });
    } finally {
      await runtime.stop();
    }
  });
});
