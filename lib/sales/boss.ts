import { z } from 'zod';
import { invalidField, managersOnly, notFound, rethrowAsApiError } from '@/lib/api';
import { withUser, type SessionUser, type Tx } from '@/lib/db';
import {
  commissionOf,
  paceOf,
  QUOTA_METRICS,
  SALES_PERIODS,
  tiersSchema,
  productRatesSchema,
  type Commission,
  type CommissionPlanRules,
  type Pace,
  type QuotaMetric,
  type SalesPeriod,
  type WonDeal,
} from './rules';

/** Who the caller is in the workspace; a non-member meets "not found", as for a workspace that does not exist. */
export async function roleIn(tx: Tx, workspaceId: string, userId: string): Promise<{ role: string; timeZone: string; locale: string }> {
  const [row] = await tx.query<{ role: string; time_zone: string; locale: string }>(
    `select m.role, w.time_zone, w.locale from public.workspace_members m join public.workspaces w on w.id = m.workspace_id
      where m.workspace_id = $1 and m.user_id = $2`,
    [workspaceId, userId],
  );
  if (!row) throw notFound('workspace');
  return { role: row.role, timeZone: row.time_zone, locale: row.locale };
}

export const isManager = (role: string) => role === 'owner' || role === 'admin';

export interface PeriodBounds {
  period: SalesPeriod;
  /** The local first day, YYYY-MM-DD. */
  startsOn: string;
  start: Date;
  end: Date;
}

/** The calendar month or quarter holding `now` in the workspace's time zone (Postgres does the zone arithmetic). */
export async function periodBounds(tx: Tx, timeZone: string, period: SalesPeriod, now: Date): Promise<PeriodBounds> {
  const [row] = await tx.query<{ starts_on: string; start: Date; end: Date }>(
    `select to_char(s, 'YYYY-MM-DD') as starts_on, s at time zone $2 as start,
            (s + case when $3 = 'month' then interval '1 month' else interval '3 months' end) at time zone $2 as "end"
       from (select date_trunc($3, $1::timestamptz at time zone $2) as s) p`,
    [now.toISOString(), timeZone, period],
  );
  return { period, startsOn: row!.starts_on, start: row!.start, end: row!.end };
}

export const overviewQuerySchema = z.object({ period: z.enum(SALES_PERIODS).default('month') });

export interface QuotaView {
  metric: QuotaMetric;
  target: number;
  pace: Pace;
}

export interface PersonStanding {
  user_id: string;
  name: string;
  revenue_cents: number;
  won_count: number;
  pipeline_cents: number;
  /** Deals of theirs whose last activity falls in the period (the app keeps no call log: docs/sales.md). */
  deals_touched: number;
  quota: QuotaView | null;
}

export interface CommissionView {
  user_id: string;
  plan_id: string;
  name: string;
  plan_name: string;
  period: PeriodBounds;
  cap_cents: number | null;
  quota: QuotaView | null;
  commission: Commission;
}

export interface SalesOverview {
  period: PeriodBounds;
  /** Everyone in the workspace, the highest revenue first. */
  people: PersonStanding[];
  team: Omit<PersonStanding, 'user_id' | 'name'>;
  /** The caller's own (a member), or everyone's who is on a plan (owners and admins): RLS decides. */
  commissions: CommissionView[];
  can_manage: boolean;
}

interface QuotaRow {
  user_id: string | null;
  metric: QuotaMetric;
  target: string;
}

const quotaView = (q: QuotaRow | undefined, revenue: number, won: number, bounds: PeriodBounds, now: Date): QuotaView | null => {
  if (!q) return null;
  const target = Number(q.target);
  return { metric: q.metric, target, pace: paceOf(target, q.metric === 'won_value' ? revenue : won, bounds.start, bounds.end, now) };
};

const NAME = `coalesce(nullif(p.display_name, ''), split_part(p.email, '@', 1))`;

export interface Standings {
  period: PeriodBounds;
  people: PersonStanding[];
  team: Omit<PersonStanding, 'user_id' | 'name'>;
}

/** The leaderboard and the team's figures of the period holding `now`, in whatever transaction the caller holds. */
export async function standingsIn(tx: Tx, workspaceId: string, timeZone: string, period: SalesPeriod, now: Date): Promise<Standings> {
  const bounds = await periodBounds(tx, timeZone, period, now);
  const people = await tx.query<{ user_id: string; name: string; revenue_cents: string; won_count: number; pipeline_cents: string; deals_touched: number }>(
    `select m.user_id, ${NAME} as name,
            coalesce(sum(d.value_cents) filter (where d.status = 'won' and d.closed_at >= $2 and d.closed_at < $3), 0) as revenue_cents,
            count(d.id) filter (where d.status = 'won' and d.closed_at >= $2 and d.closed_at < $3)::int as won_count,
            coalesce(sum(d.value_cents) filter (where d.status = 'open'), 0) as pipeline_cents,
            count(d.id) filter (where d.last_activity_at >= $2 and d.last_activity_at < $3)::int as deals_touched
       from public.workspace_members m
       join public.profiles p on p.user_id = m.user_id
       left join public.deals d on d.workspace_id = m.workspace_id and d.owner_user_id = m.user_id
      where m.workspace_id = $1
      group by m.user_id, p.display_name, p.email`,
    [workspaceId, bounds.start.toISOString(), bounds.end.toISOString()],
  );
  const quotas = await tx.query<QuotaRow>(
    `select user_id, metric, target from public.sales_quotas where workspace_id = $1 and period = $2 and starts_on = $3::date`,
    [workspaceId, period, bounds.startsOn],
  );
  const standings: PersonStanding[] = people
    .map((p) => {
      const revenue = Number(p.revenue_cents);
      return {
        user_id: p.user_id,
        name: p.name,
        revenue_cents: revenue,
        won_count: p.won_count,
        pipeline_cents: Number(p.pipeline_cents),
        deals_touched: p.deals_touched,
        quota: quotaView(quotas.find((q) => q.user_id === p.user_id), revenue, p.won_count, bounds, now),
      };
    })
    .sort((a, b) => b.revenue_cents - a.revenue_cents || b.won_count - a.won_count || a.name.localeCompare(b.name));
  // The team is everyone's deals, owned or not.
  const [team] = await tx.query<{ revenue_cents: string; won_count: number; pipeline_cents: string; deals_touched: number }>(
    `select coalesce(sum(value_cents) filter (where status = 'won' and closed_at >= $2 and closed_at < $3), 0) as revenue_cents,
            count(*) filter (where status = 'won' and closed_at >= $2 and closed_at < $3)::int as won_count,
            coalesce(sum(value_cents) filter (where status = 'open'), 0) as pipeline_cents,
            count(*) filter (where last_activity_at >= $2 and last_activity_at < $3)::int as deals_touched
       from public.deals where workspace_id = $1`,
    [workspaceId, bounds.start.toISOString(), bounds.end.toISOString()],
  );
  const teamRevenue = Number(team!.revenue_cents);
  return {
    period: bounds,
    people: standings,
    team: {
      revenue_cents: teamRevenue,
      won_count: team!.won_count,
      pipeline_cents: Number(team!.pipeline_cents),
      deals_touched: team!.deals_touched,
      quota: quotaView(quotas.find((q) => q.user_id === null), teamRevenue, team!.won_count, bounds, now),
    },
  };
}

/** The leaderboard of a period, the team's quota, and the commissions the caller may see. */
export async function salesOverview(user: SessionUser, workspaceId: string, query: { period: SalesPeriod }, now = new Date()): Promise<SalesOverview> {
  return withUser(user, async (tx) => {
    const { role, timeZone } = await roleIn(tx, workspaceId, user.id);
    const standings = await standingsIn(tx, workspaceId, timeZone, query.period, now);
    return { ...standings, commissions: await commissions(tx, workspaceId, timeZone, now), can_manage: isManager(role) };
  });
}

interface PlanRow {
  user_id: string;
  plan_id: string;
  name: string;
  plan_name: string;
  period: SalesPeriod;
  base_rate_bp: number;
  tiers: unknown;
  product_rates: unknown;
  cap_cents: string | null;
}

const rulesOf = (plan: PlanRow): CommissionPlanRules => ({
  baseRateBp: plan.base_rate_bp,
  tiers: tiersSchema.parse(plan.tiers),
  productRates: productRatesSchema.parse(plan.product_rates),
  capCents: plan.cap_cents === null ? null : Number(plan.cap_cents),
});

/** Plans visible to the caller under RLS: their own assignment, or everyone's for owners and admins. */
async function visiblePlans(tx: Tx, workspaceId: string, userId?: string) {
  return tx.query<PlanRow>(
    `select a.user_id, a.plan_id, ${NAME} as name, c.name as plan_name, c.period, c.base_rate_bp, c.tiers, c.product_rates, c.cap_cents
       from public.commission_assignments a
       join public.commission_plans c on c.workspace_id = a.workspace_id and c.id = a.plan_id
       join public.profiles p on p.user_id = a.user_id
      where a.workspace_id = $1 and ($2::uuid is null or a.user_id = $2)
      order by lower(${NAME})`,
    [workspaceId, userId ?? null],
  );
}

async function wonIn(tx: Tx, workspaceId: string, userId: string, bounds: PeriodBounds): Promise<WonDeal[]> {
  const rows = await tx.query<{ id: string; value_cents: string; product: string | null }>(
    `select id, value_cents, product from public.deals
      where workspace_id = $1 and owner_user_id = $2 and status = 'won' and closed_at >= $3 and closed_at < $4
      order by closed_at, id`,
    [workspaceId, userId, bounds.start.toISOString(), bounds.end.toISOString()],
  );
  return rows.map((r) => ({ id: r.id, valueCents: Number(r.value_cents), product: r.product }));
}

async function personQuota(tx: Tx, workspaceId: string, userId: string, bounds: PeriodBounds): Promise<QuotaRow | undefined> {
  const [q] = await tx.query<QuotaRow>(
    `select user_id, metric, target from public.sales_quotas where workspace_id = $1 and user_id = $2 and period = $3 and starts_on = $4::date`,
    [workspaceId, userId, bounds.period, bounds.startsOn],
  );
  return q;
}

async function commissionFor(tx: Tx, workspaceId: string, timeZone: string, plan: PlanRow, now: Date, extra: WonDeal[] = []): Promise<CommissionView> {
  const bounds = await periodBounds(tx, timeZone, plan.period, now);
  const won = await wonIn(tx, workspaceId, plan.user_id, bounds);
  const q = await personQuota(tx, workspaceId, plan.user_id, bounds);
  const all = [...won, ...extra];
  const revenue = all.reduce((s, d) => s + d.valueCents, 0);
  return {
    user_id: plan.user_id,
    plan_id: plan.plan_id,
    name: plan.name,
    plan_name: plan.plan_name,
    period: bounds,
    cap_cents: plan.cap_cents === null ? null : Number(plan.cap_cents),
    quota: quotaView(q, revenue, all.length, bounds, now),
    commission: commissionOf(rulesOf(plan), q ? { metric: q.metric, target: Number(q.target) } : null, all),
  };
}

async function commissions(tx: Tx, workspaceId: string, timeZone: string, now: Date): Promise<CommissionView[]> {
  const plans = await visiblePlans(tx, workspaceId);
  const views: CommissionView[] = [];
  for (const plan of plans) views.push(await commissionFor(tx, workspaceId, timeZone, plan, now));
  return views;
}

export const whatIfSchema = z.object({
  userId: z.uuid().optional(),
  dealIds: z.array(z.uuid()).min(1).max(20),
});

export interface WhatIf {
  now: CommissionView;
  if_closed: CommissionView;
  gain_cents: number;
}

/**
 * "If I close these deals": the commission of the plan's period now and with these open deals of the
 * person's won today. The person is the caller unless an owner or admin names someone; a plan the
 * caller may not see (RLS) is "not found".
 */
export async function commissionWhatIf(user: SessionUser, workspaceId: string, input: z.infer<typeof whatIfSchema>, now = new Date()): Promise<WhatIf> {
  return withUser(user, async (tx) => {
    const { timeZone } = await roleIn(tx, workspaceId, user.id);
    const person = input.userId ?? user.id;
    const [plan] = await visiblePlans(tx, workspaceId, person);
    if (!plan) throw notFound('commission');
    const ids = [...new Set(input.dealIds)];
    const deals = await tx.query<{ id: string; value_cents: string; product: string | null }>(
      `select id, value_cents, product from public.deals
        where workspace_id = $1 and owner_user_id = $2 and status = 'open' and id = any($3::uuid[]) order by value_cents desc, id`,
      [workspaceId, person, ids],
    );
    if (deals.length !== ids.length) throw invalidField('dealIds', 'api.sales.whatIfDeals');
    const before = await commissionFor(tx, workspaceId, timeZone, plan, now);
    const after = await commissionFor(tx, workspaceId, timeZone, plan, now, deals.map((d) => ({ id: d.id, valueCents: Number(d.value_cents), product: d.product })));
    return { now: before, if_closed: after, gain_cents: after.commission.earnedCents - before.commission.earnedCents };
  });
}

export const quotaInputSchema = z.object({
  userId: z.uuid().nullable(),
  period: z.enum(SALES_PERIODS),
  /** Any day of the period; stored as its first day. Absent: the current period. */
  date: z.iso.date().optional(),
  metric: z.enum(QUOTA_METRICS),
  target: z.number().int().positive().max(100_000_000_000),
});

/** Sets (or replaces) a person's or the team's quota for a period; owners and admins only. */
export async function setQuota(user: SessionUser, workspaceId: string, input: z.infer<typeof quotaInputSchema>, now = new Date()) {
  return withUser(user, async (tx) => {
    const { role, timeZone } = await roleIn(tx, workspaceId, user.id);
    if (!isManager(role)) throw managersOnly('manageSales');
    const at = input.date ? new Date(`${input.date}T12:00:00Z`) : now;
    const bounds = input.date
      ? (await tx.query<{ starts_on: string }>(`select to_char(date_trunc($2, $1::date), 'YYYY-MM-DD') as starts_on`, [input.date, input.period]))[0]!.starts_on
      : (await periodBounds(tx, timeZone, input.period, at)).startsOn;
    if (input.userId) {
      const [member] = await tx.query(`select 1 from public.workspace_members where workspace_id = $1 and user_id = $2`, [workspaceId, input.userId]);
      if (!member) throw invalidField('userId', 'api.sales.notAMember');
    }
    try {
      const [row] = await tx.query<{ id: string; user_id: string | null; period: SalesPeriod; starts_on: string; metric: QuotaMetric; target: string }>(
        `insert into public.sales_quotas (workspace_id, user_id, period, starts_on, metric, target) values ($1, $2, $3, $4::date, $5, $6)
         on conflict (workspace_id, (coalesce(user_id, '00000000-0000-0000-0000-000000000000'::uuid)), period, starts_on)
         do update set metric = excluded.metric, target = excluded.target
         returning id, user_id, period, to_char(starts_on, 'YYYY-MM-DD') as starts_on, metric, target`,
        [workspaceId, input.userId, input.period, bounds, input.metric, input.target],
      );
      return { ...row!, target: Number(row!.target) };
    } catch (error) {
      rethrowAsApiError(error);
    }
  });
}

export const assignmentSchema = z.object({ userId: z.uuid(), planId: z.uuid().nullable() });

/** Puts a person on a commission plan (or on none, `planId: null`); owners and admins only. */
export async function assignPlan(user: SessionUser, workspaceId: string, input: z.infer<typeof assignmentSchema>) {
  return withUser(user, async (tx) => {
    const { role } = await roleIn(tx, workspaceId, user.id);
    if (!isManager(role)) throw managersOnly('manageSales');
    const [member] = await tx.query(`select 1 from public.workspace_members where workspace_id = $1 and user_id = $2`, [workspaceId, input.userId]);
    if (!member) throw invalidField('userId', 'api.sales.notAMember');
    if (input.planId === null) {
      await tx.query(`delete from public.commission_assignments where workspace_id = $1 and user_id = $2`, [workspaceId, input.userId]);
      return { user_id: input.userId, plan_id: null };
    }
    const [plan] = await tx.query(`select 1 from public.commission_plans where workspace_id = $1 and id = $2`, [workspaceId, input.planId]);
    if (!plan) throw invalidField('planId', 'api.sales.noSuchPlan');
    await tx.query(`delete from public.commission_assignments where workspace_id = $1 and user_id = $2`, [workspaceId, input.userId]);
    await tx.query(`insert into public.commission_assignments (workspace_id, user_id, plan_id) values ($1, $2, $3)`, [workspaceId, input.userId, input.planId]);
    return { user_id: input.userId, plan_id: input.planId };
  });
}
