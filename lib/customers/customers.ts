import { z } from 'zod';
import type { OutboxMessageView } from '@/lib/autonomy';
import { isUuid, notFound, rethrowAsApiError } from '@/lib/api';
import { channelConnectedSql } from '@/lib/channels';
import { withUser, type SessionUser, type Tx } from '@/lib/db';
import type { AppointmentStatus } from '@/lib/planets';
import type { Role } from '@/lib/workspaces';

/** How many customers a list or a search shows at most: a front desk searches rather than scrolls. */
export const LIST_LIMIT = 50;
/** How many of a customer's visits and messages the detail shows, newest first. */
export const HISTORY_LIMIT = 100;
export const NOTES_MAX = 2000;

export const listCustomersSchema = z.object({
  q: z.string().trim().max(120).optional(),
});

/** Consent and notes: what the front desk records as the customer says it. Any member (RLS). */
export const customerChangeSchema = z
  .object({
    consentMessages: z.boolean().optional(),
    consentMarketing: z.boolean().optional(),
    notes: z.string().max(NOTES_MAX, 'api.customers.notesTooLong').optional(),
  })
  .strict()
  .refine((change) => Object.values(change).some((value) => value !== undefined), 'api.customers.nothingToChange');
export type CustomerChange = z.infer<typeof customerChangeSchema>;

export interface CustomerListItem {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  vip: boolean;
  visit_count: number;
  last_visit_at: Date | null;
  /** Days between visits on average ((last − first) / (visits − 1)); null with fewer than two visits. */
  usual_gap_days: number | null;
  next_visit_at: Date | null;
}

export interface CustomerVisit {
  id: string;
  starts_at: Date;
  status: AppointmentStatus;
  price_cents: number;
  service_name: string;
  staff_name: string;
}

/** A message sent to the customer, as the outbox shows it (the recipient's name is the customer's own). */
export type CustomerMessage = Omit<OutboxMessageView, 'decision_id' | 'recipient_name'>;

export interface CustomerDetail extends CustomerListItem {
  consent_messages: boolean;
  consent_marketing: boolean;
  notes: string;
  created_at: Date;
  first_visit_at: Date | null;
  /** Completed visits' prices. */
  spend_cents: number;
  no_shows: number;
  visits: CustomerVisit[];
  messages: CustomerMessage[];
}

/** The caller's role in the workspace; a stranger (who sees no membership under RLS) gets 404. */
export async function roleIn(tx: Tx, user: SessionUser, workspaceId: string): Promise<Role> {
  const [row] = await tx.query<{ role: Role }>(`select role from public.workspace_members where workspace_id = $1 and user_id = $2`, [workspaceId, user.id]);
  if (!row) throw notFound('workspace');
  return row.role;
}

const LIST_COLUMNS = `c.id, c.name, c.email, c.phone, c.vip, c.visit_count, c.last_visit_at,
       case when c.visit_count >= 2
            then round((extract(epoch from c.last_visit_at - c.first_visit_at) / 86400 / (c.visit_count - 1))::numeric, 1)
       end as usual_gap_days,
       (select min(a.starts_at) from public.appointments a
         where a.workspace_id = c.workspace_id and a.customer_id = c.id and a.status in ('booked', 'confirmed') and a.starts_at >= $2) as next_visit_at`;

/**
 * The workspace's customers, most recently seen first, or those whose name or email contains `q` (any
 * case) or whose phone contains its digits (however either is spaced). Any member.
 */
export async function listCustomers(user: SessionUser, workspaceId: string, query: z.infer<typeof listCustomersSchema>, now = new Date()): Promise<CustomerListItem[]> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  const q = query.q?.toLowerCase() ?? '';
  const digits = q.replace(/\D/g, '');
  return withUser(user, async (tx) => {
    await roleIn(tx, user, workspaceId);
    return tx.query<CustomerListItem>(
      `select ${LIST_COLUMNS}
         from public.customers c
        where c.workspace_id = $1
          and ($3 = '' or strpos(lower(c.name), $3) > 0 or strpos(lower(coalesce(c.email, '')), $3) > 0
               or (length($4) >= 3 and strpos(regexp_replace(coalesce(c.phone, ''), '\\D', '', 'g'), $4) > 0))
        order by c.last_visit_at desc nulls last, c.name, c.id
        limit ${LIST_LIMIT}`,
      [workspaceId, now.toISOString(), q, digits],
    );
  }).catch(rethrowAsApiError);
}

/** One customer with their visits, spend, consent, notes and the messages sent (or not) to them. Any member. */
export async function getCustomer(user: SessionUser, workspaceId: string, customerId: string, now = new Date()): Promise<CustomerDetail> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  if (!isUuid(customerId)) throw notFound('customer');
  return withUser(user, (tx) => readCustomer(tx, user, workspaceId, customerId, now)).catch(rethrowAsApiError);
}

async function readCustomer(tx: Tx, user: SessionUser, workspaceId: string, customerId: string, now: Date): Promise<CustomerDetail> {
  await roleIn(tx, user, workspaceId);
  const [customer] = await tx.query<Omit<CustomerDetail, 'visits' | 'messages'>>(
    `select ${LIST_COLUMNS}, c.consent_messages, c.consent_marketing, c.notes, c.created_at, c.first_visit_at,
            coalesce(s.spend, 0)::int as spend_cents, coalesce(s.no_shows, 0)::int as no_shows
       from public.customers c
       left join lateral (
         select sum(a.price_cents) filter (where a.status = 'completed') as spend, count(*) filter (where a.status = 'no_show') as no_shows
           from public.appointments a where a.workspace_id = c.workspace_id and a.customer_id = c.id
       ) s on true
      where c.workspace_id = $1 and c.id = $3`,
    [workspaceId, now.toISOString(), customerId],
  );
  if (!customer) throw notFound('customer');
  const visits = await tx.query<CustomerVisit>(
      `select a.id, a.starts_at, a.status, a.price_cents, s.name as service_name, st.name as staff_name
         from public.appointments a
         join public.services s on s.workspace_id = a.workspace_id and s.id = a.service_id
         join public.staff st on st.workspace_id = a.workspace_id and st.id = a.staff_id
        where a.workspace_id = $1 and a.customer_id = $2
        order by a.starts_at desc, a.id limit ${HISTORY_LIMIT}`,
    [workspaceId, customerId],
  );
  const messages = await tx.query<CustomerMessage>(
      `select o.id, o.channel, o.recipient, o.subject, o.body, o.status, o.send_after, o.sent_at, o.delivered_at, o.cancelled_at, o.error,
              o.next_attempt_at, ${channelConnectedSql('o')} as connected, o.created_at
         from public.outbox_messages o
        where workspace_id = $1 and customer_id = $2
        order by created_at desc, id limit ${HISTORY_LIMIT}`,
    [workspaceId, customerId],
  );
  return { ...customer, visits, messages };
}

/** Records consent and notes as the customer gave them; any member (the RLS update policy decides). */
export async function updateCustomer(user: SessionUser, workspaceId: string, customerId: string, change: CustomerChange, now = new Date()): Promise<CustomerDetail> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  if (!isUuid(customerId)) throw notFound('customer');
  return withUser(user, async (tx) => {
    await roleIn(tx, user, workspaceId);
    const updated = await tx.query(
      `update public.customers
          set consent_messages = coalesce($3, consent_messages),
              consent_marketing = coalesce($4, consent_marketing),
              notes = coalesce($5, notes)
        where workspace_id = $1 and id = $2
        returning id`,
      [workspaceId, customerId, change.consentMessages ?? null, change.consentMarketing ?? null, change.notes ?? null],
    );
    if (updated.length === 0) throw notFound('customer');
    return readCustomer(tx, user, workspaceId, customerId, now);
  }).catch(rethrowAsApiError);
}
