import { z } from 'zod';
import { managersOnly, notFound, rethrowAsApiError } from '@/lib/api';
import { withUser, type SessionUser, type Tx } from '@/lib/db';
import { isManager, roleIn } from './boss';
import { productRatesSchema, SALES_PERIODS, tiersSchema, type CommissionPlanRules, type SalesPeriod } from './rules';

const planFields = z.object({
  name: z.string().trim().min(1).max(80),
  period: z.enum(SALES_PERIODS),
  baseRateBp: z.number().int().min(0).max(10_000),
  tiers: tiersSchema,
  productRates: productRatesSchema,
  /** null: no cap. */
  capCents: z.number().int().positive().max(100_000_000_000).nullable(),
});
export const commissionPlanSchema = planFields.extend({
  tiers: tiersSchema.default([]),
  productRates: productRatesSchema.default([]),
  capCents: planFields.shape.capCents.default(null),
});
export type CommissionPlanInput = z.infer<typeof commissionPlanSchema>;
/** A change names only what it changes; the tiers, product rates or cap given replace the old ones whole. */
export const commissionPlanChangeSchema = planFields.partial();

export interface CommissionPlanView extends CommissionPlanRules {
  id: string;
  name: string;
  period: SalesPeriod;
}

export interface SalesPerson {
  userId: string;
  name: string;
  /** The commission plan they are on, or null. */
  planId: string | null;
}

export interface CommissionPlans {
  plans: CommissionPlanView[];
  people: SalesPerson[];
}

const NAME = `coalesce(nullif(p.display_name, ''), split_part(p.email, '@', 1))`;
const PLAN_COLUMNS = `id, name, period, base_rate_bp as "baseRateBp", tiers, product_rates as "productRates", cap_cents::float8 as "capCents"`;

async function managerIn(tx: Tx, workspaceId: string, userId: string) {
  const { role } = await roleIn(tx, workspaceId, userId);
  if (!isManager(role)) throw managersOnly('manageSales');
}

/** Every plan and who is on which: what an owner or admin edits (a member may read only their own, through the overview). */
export async function commissionPlans(user: SessionUser, workspaceId: string): Promise<CommissionPlans> {
  return withUser(user, async (tx) => {
    await managerIn(tx, workspaceId, user.id);
    const plans = await tx.query<CommissionPlanView>(`select ${PLAN_COLUMNS} from public.commission_plans where workspace_id = $1 order by lower(name)`, [workspaceId]);
    const people = await tx.query<SalesPerson>(
      `select m.user_id as "userId", ${NAME} as name, a.plan_id as "planId"
         from public.workspace_members m join public.profiles p on p.user_id = m.user_id
         left join public.commission_assignments a on a.workspace_id = m.workspace_id and a.user_id = m.user_id
        where m.workspace_id = $1 order by lower(${NAME})`,
      [workspaceId],
    );
    return { plans, people };
  });
}

const jsonOrNull = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** A new commission plan; owners and admins only. Two plans may not share a name (409). */
export async function createCommissionPlan(user: SessionUser, workspaceId: string, input: CommissionPlanInput): Promise<CommissionPlanView> {
  return withUser(user, async (tx) => {
    await managerIn(tx, workspaceId, user.id);
    try {
      const [plan] = await tx.query<CommissionPlanView>(
        `insert into public.commission_plans (workspace_id, name, period, base_rate_bp, tiers, product_rates, cap_cents)
         values ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7) returning ${PLAN_COLUMNS}`,
        [workspaceId, input.name, input.period, input.baseRateBp, JSON.stringify(input.tiers), JSON.stringify(input.productRates), input.capCents],
      );
      return plan!;
    } catch (error) {
      rethrowAsApiError(error);
    }
  });
}

/** Changes a plan's rules; everyone on it earns by the new rules from the next overview on. Owners and admins only. */
export async function updateCommissionPlan(
  user: SessionUser,
  workspaceId: string,
  planId: string,
  change: z.infer<typeof commissionPlanChangeSchema>,
): Promise<CommissionPlanView> {
  return withUser(user, async (tx) => {
    await managerIn(tx, workspaceId, user.id);
    let plan: CommissionPlanView | undefined;
    try {
      [plan] = await tx.query<CommissionPlanView>(
        `update public.commission_plans set name = coalesce($3, name), period = coalesce($4, period), base_rate_bp = coalesce($5, base_rate_bp),
                tiers = coalesce($6::jsonb, tiers), product_rates = coalesce($7::jsonb, product_rates),
                cap_cents = case when $8 then $9::bigint else cap_cents end
          where workspace_id = $1 and id = $2 returning ${PLAN_COLUMNS}`,
        [
          workspaceId,
          planId,
          change.name ?? null,
          change.period ?? null,
          change.baseRateBp ?? null,
          jsonOrNull(change.tiers),
          jsonOrNull(change.productRates),
          change.capCents !== undefined,
          change.capCents ?? null,
        ],
      );
    } catch (error) {
      rethrowAsApiError(error);
    }
    if (!plan) throw notFound('commissionPlan');
    return plan;
  });
}
