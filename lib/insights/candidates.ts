import { LAPSE_GRACE, LAPSE_MIN_VISITS, STALE_DEAL_DAYS, type Planet } from '@/lib/planets';
import type { Tx } from '@/lib/db';

/**
 * What the planets' actions could be applied to today: ids and facts, never names or contacts (the
 * agent reads these through a tool; the write tools resolve the people themselves). Already-proposed
 * subjects are left out by the actions' dedupe keys, not here.
 */
export interface Candidates {
  /** Appointments in the next 30 hours with no reminder sent. */
  remindersDue: Array<{ appointmentId: string; startsAt: Date }>;
  /** Cancelled upcoming appointments whose slot is still free and fits a reachable waiting customer's window. */
  freedSlots: Array<{ appointmentId: string; startsAt: Date; service: string }>;
  /** Customers past their own usual gap, most loyal first. `eligible`: consent, not VIP, reachable. */
  lapsed: Array<{ customerId: string; visits: number; usualGapDays: number; daysSince: number; eligible: boolean }>;
  /** Open deals idle for STALE_DEAL_DAYS, most valuable first. */
  staleDeals: Array<{ dealId: string; valueCents: number; idleDays: number; hasCustomer: boolean }>;
}

const LIMIT = 25;
const HOUR = 3_600_000;

export async function findCandidates(tx: Tx, workspaceId: string, planet: Planet, now: Date): Promise<Candidates> {
  const out: Candidates = { remindersDue: [], freedSlots: [], lapsed: [], staleDeals: [] };
  const at = now.toISOString();
  if (planet === 'booking') {
    out.remindersDue = (
      await tx.query<{ id: string; starts_at: Date }>(
        `select id, starts_at from public.appointments
          where workspace_id = $1 and status in ('booked', 'confirmed') and reminder_sent_at is null
            and starts_at > $2 and starts_at <= $3
          order by starts_at limit $4`,
        [workspaceId, new Date(now.getTime() + 2 * HOUR).toISOString(), new Date(now.getTime() + 30 * HOUR).toISOString(), LIMIT],
      )
    ).map((r) => ({ appointmentId: r.id, startsAt: r.starts_at }));
    out.freedSlots = (
      await tx.query<{ id: string; starts_at: Date; service: string }>(
        `select a.id, a.starts_at, s.name as service
           from public.appointments a
           join public.services s on s.workspace_id = a.workspace_id and s.id = a.service_id
          where a.workspace_id = $1 and a.status = 'cancelled' and a.starts_at > $2 and a.starts_at < $3
            and not exists (select 1 from public.appointments o
                             where o.workspace_id = a.workspace_id and o.staff_id = a.staff_id and o.status <> 'cancelled'
                               and o.starts_at < a.ends_at and o.ends_at > a.starts_at)
            and exists (select 1 from public.waitlist_entries w
                          join public.customers c on c.workspace_id = w.workspace_id and c.id = w.customer_id
                         where w.workspace_id = a.workspace_id and w.status = 'waiting' and w.notified_at is null
                           and w.service_id = a.service_id and w.window_start <= a.starts_at and w.window_end >= a.ends_at
                           and c.consent_messages and (c.phone is not null or c.email is not null))
          order by a.starts_at limit $4`,
        [workspaceId, new Date(now.getTime() + 2 * HOUR).toISOString(), new Date(now.getTime() + 14 * 24 * HOUR).toISOString(), LIMIT],
      )
    ).map((r) => ({ appointmentId: r.id, startsAt: r.starts_at, service: r.service }));
  }
  if (planet === 'crm') {
    out.lapsed = (
      await tx.query<{ id: string; visit_count: number; gap: number; since: number; eligible: boolean }>(
        `select c.id, c.visit_count,
                date_part('epoch', c.last_visit_at - c.first_visit_at) / 86400 / (c.visit_count - 1) as gap,
                date_part('epoch', $2::timestamptz - c.last_visit_at) / 86400 as since,
                (c.consent_marketing and not c.vip and (c.phone is not null or c.email is not null)) as eligible
           from public.customers c
          where c.workspace_id = $1 and c.visit_count >= $3
            and c.last_visit_at < $2::timestamptz - (c.last_visit_at - c.first_visit_at) / (c.visit_count - 1) * $4::float8
            and not exists (select 1 from public.appointments a
                             where a.workspace_id = c.workspace_id and a.customer_id = c.id
                               and a.starts_at >= $2 and a.status in ('booked', 'confirmed'))
          order by eligible desc, c.visit_count desc, c.last_visit_at desc limit $5`,
        [workspaceId, at, LAPSE_MIN_VISITS, LAPSE_GRACE, LIMIT],
      )
    ).map((r) => ({ customerId: r.id, visits: r.visit_count, usualGapDays: Math.round(r.gap), daysSince: Math.floor(r.since), eligible: r.eligible }));
  }
  if (planet === 'sales') {
    out.staleDeals = (
      await tx.query<{ id: string; value_cents: number; idle: number; has_customer: boolean }>(
        `select id, value_cents, date_part('epoch', $2::timestamptz - last_activity_at) / 86400 as idle, customer_id is not null as has_customer
           from public.deals
          where workspace_id = $1 and status = 'open' and last_activity_at < $3
          order by value_cents desc limit $4`,
        [workspaceId, at, new Date(now.getTime() - STALE_DEAL_DAYS * 24 * HOUR).toISOString(), LIMIT],
      )
    ).map((r) => ({ dealId: r.id, valueCents: r.value_cents, idleDays: Math.floor(r.idle), hasCustomer: r.has_customer }));
  }
  return out;
}
