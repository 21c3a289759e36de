import { z } from 'zod';
import { LEAD_SOURCES } from '@/lib/planets';

/**
 * The sales boss view's arithmetic, pure so the browser and the agent tools use the same: quota pace,
 * tiered commission with a cap, territory routing. Money is integer cents, rates basis points.
 */

export const SALES_PERIODS = ['month', 'quarter'] as const;
export type SalesPeriod = (typeof SALES_PERIODS)[number];
export const QUOTA_METRICS = ['won_value', 'won_count'] as const;
export type QuotaMetric = (typeof QUOTA_METRICS)[number];

const DAY = 86_400_000;

export type PaceStatus = 'met' | 'on_pace' | 'behind';

export interface Pace {
  target: number;
  actual: number;
  /** Whole percent of the target reached, rounded down. */
  attainmentPct: number;
  /** Where a steady pace would be by now. */
  expected: number;
  status: PaceStatus;
  remaining: number;
  /** Calendar days left, today included (0 once the period is over). */
  daysLeft: number;
  /** What each remaining week needs to reach the target, rounded up; 0 once met or over. */
  neededPerWeek: number;
}

/** How a quota stands at `now` in a period [start, end): attainment, the pace it should be at, what the rest needs. */
export function paceOf(target: number, actual: number, start: Date, end: Date, now: Date): Pace {
  const total = end.getTime() - start.getTime();
  const elapsed = Math.min(Math.max(now.getTime() - start.getTime(), 0), total);
  const expected = Math.floor((target * elapsed) / total);
  const remaining = Math.max(target - actual, 0);
  const daysLeft = Math.max(Math.ceil((end.getTime() - Math.max(now.getTime(), start.getTime())) / DAY), 0);
  const status: PaceStatus = actual >= target ? 'met' : actual >= expected ? 'on_pace' : 'behind';
  const neededPerWeek = remaining === 0 || daysLeft === 0 ? 0 : Math.ceil((remaining * 7) / daysLeft);
  return { target, actual, attainmentPct: Math.floor((actual * 100) / target), expected, status, remaining, daysLeft, neededPerWeek };
}

// Commission ----------------------------------------------------------------------------------------

const rateBp = z.number().int().min(0).max(10_000);
export const tiersSchema = z
  .array(z.object({ fromPct: z.number().int().min(1).max(1000), rateBp }).strict())
  .max(10)
  .refine((tiers) => tiers.every((t, i) => i === 0 || t.fromPct > tiers[i - 1]!.fromPct), 'api.sales.tiersOrder');
export const productRatesSchema = z.array(z.object({ product: z.string().trim().min(1).max(80), rateBp }).strict()).max(50);

export interface CommissionPlanRules {
  baseRateBp: number;
  tiers: z.infer<typeof tiersSchema>;
  productRates: z.infer<typeof productRatesSchema>;
  capCents: number | null;
}

export interface WonDeal {
  id: string;
  valueCents: number;
  product: string | null;
}

export interface CommissionLine {
  dealId: string;
  valueCents: number;
  commissionCents: number;
}

export interface Commission {
  earnedCents: number;
  /** Before the cap. */
  uncappedCents: number;
  capped: boolean;
  lines: CommissionLine[];
}

/**
 * Commission on the deals won in a period, in the order they were won. Below the first tier each deal
 * earns its product's rate, else the base rate; the won value past a tier's share of the quota (a value
 * quota) or the deals past it (a count quota) earn that tier's rate instead. Without a quota the tiers
 * do not apply. Each line is rounded down to the cent; the total stops at the cap.
 */
export function commissionOf(plan: CommissionPlanRules, quota: { metric: QuotaMetric; target: number } | null, deals: WonDeal[]): Commission {
  const tiers = quota ? plan.tiers.map((t) => ({ threshold: (quota.target * t.fromPct) / 100, rateBp: t.rateBp })) : [];
  const rateOf = (deal: WonDeal) => plan.productRates.find((p) => deal.product !== null && p.product.toLowerCase() === deal.product.toLowerCase())?.rateBp ?? plan.baseRateBp;
  let won = 0;
  let count = 0;
  const lines = deals.map((deal) => {
    let units = 0; // cents × basis points
    if (quota?.metric === 'won_count') {
      count += 1;
      const tier = tiers.filter((t) => count > t.threshold).at(-1);
      units = deal.valueCents * (tier ? tier.rateBp : rateOf(deal));
    } else {
      // Split the deal's value across the brackets it spans: [won, won + value).
      const bounds = [0, ...tiers.map((t) => t.threshold), Infinity];
      const rates = [rateOf(deal), ...tiers.map((t) => t.rateBp)];
      for (let i = 0; i < rates.length; i++) {
        const part = Math.min(won + deal.valueCents, bounds[i + 1]!) - Math.max(won, bounds[i]!);
        if (part > 0) units += part * rates[i]!;
      }
      won += deal.valueCents;
    }
    return { dealId: deal.id, valueCents: deal.valueCents, commissionCents: Math.floor(units / 10_000) };
  });
  const uncappedCents = lines.reduce((sum, l) => sum + l.commissionCents, 0);
  const earnedCents = plan.capCents === null ? uncappedCents : Math.min(uncappedCents, plan.capCents);
  return { earnedCents, uncappedCents, capped: earnedCents < uncappedCents, lines };
}

// Territories ---------------------------------------------------------------------------------------

export { TERRITORY_FIELDS, type TerritoryField } from './client';

export const territoryRuleSchema = z.discriminatedUnion('field', [
  z.object({ field: z.literal('postcode'), value: z.string().trim().min(1).max(16) }).strict(),
  z.object({ field: z.literal('city'), value: z.string().trim().min(1).max(80) }).strict(),
  z.object({ field: z.literal('sector'), value: z.string().trim().min(1).max(60) }).strict(),
  z.object({ field: z.literal('source'), value: z.enum(LEAD_SOURCES) }).strict(),
]);
export type TerritoryRule = z.infer<typeof territoryRuleSchema>;
export const territoryRulesSchema = z.array(territoryRuleSchema).max(100);

export interface Routable {
  postcode: string | null;
  city: string | null;
  sector: string | null;
  source: string | null;
}

export interface RoutingTerritory {
  id: string;
  name: string;
  ownerUserId: string;
  rules: TerritoryRule[];
}

const folded = (s: string) => s.trim().toLocaleLowerCase('it');
const postcodeOf = (s: string) => s.replace(/\s+/g, '').toUpperCase();

/** A postcode rule is a prefix ("201" holds 20121); city and sector match whole, ignoring case; source exactly. */
export function ruleMatches(rule: TerritoryRule, record: Routable): boolean {
  const value = record[rule.field];
  if (value === null) return false;
  if (rule.field === 'postcode') return postcodeOf(value).startsWith(postcodeOf(rule.value));
  if (rule.field === 'source') return value === rule.value;
  return folded(value) === folded(rule.value);
}

/** The first territory (in the model's order) with a rule that matches, or null: then nobody is assigned by rule. */
export function routeTo<T extends RoutingTerritory>(territories: T[], record: Routable): T | null {
  return territories.find((t) => t.rules.some((rule) => ruleMatches(rule, record))) ?? null;
}

// Call scripts --------------------------------------------------------------------------------------

export const SCRIPT_PLACEHOLDERS = ['customer', 'deal', 'value', 'stage', 'last_contact', 'owner'] as const;
export type ScriptValues = Record<(typeof SCRIPT_PLACEHOLDERS)[number], string>;

/** Fills {{customer}}, {{deal}}… ; an unknown placeholder stays as written, so a typo shows. */
export function renderScript(template: string, values: ScriptValues): string {
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) => (name in values ? values[name as keyof ScriptValues] : whole));
}
