import { beforeAll, describe, expect, it } from 'vitest';
import { createSalon, type Salon } from '@/lib/autonomy/test-world';
import { submitAction } from '@/lib/autonomy';
import { asService, withUser } from '@/lib/db';
import { money } from '@/lib/planets';
import { setupTestDatabase } from '@/test/db';
import {
  activateModel,
  assignPlan,
  callScripts,
  changeTerritory,
  commissionOf,
  commissionWhatIf,
  dealScript,
  paceOf,
  salesOverview,
  setCallScript,
  salesStandingTool,
  setQuota,
  territoriesView,
} from '.';

setupTestDatabase();

// Rome: 1 December 00:00 local is 30 November 23:00 UTC.
const DEC_START = new Date('2026-11-30T23:00:00Z');
const JAN_START = new Date('2026-12-31T23:00:00Z');

describe('quota pace (pure)', () => {
  it('says how far along the target is, whether that keeps pace with the calendar, and what each remaining week needs', () => {
    const mid = new Date('2026-12-16T23:00:00Z'); // 16 of 31 days gone
    expect(paceOf(310_000, 200_000, DEC_START, JAN_START, mid)).toMatchObject({ attainmentPct: 64, expected: 160_000, status: 'on_pace', remaining: 110_000, daysLeft: 15, neededPerWeek: 51_334 });
    expect(paceOf(310_000, 100_000, DEC_START, JAN_START, mid)).toMatchObject({ attainmentPct: 32, status: 'behind', remaining: 210_000 });
    expect(paceOf(310_000, 320_000, DEC_START, JAN_START, mid)).toMatchObject({ attainmentPct: 103, status: 'met', remaining: 0, neededPerWeek: 0 });
    // Counts work the same; after the period nothing is left to do in it.
    expect(paceOf(10, 4, DEC_START, JAN_START, new Date('2027-01-05T00:00:00Z'))).toMatchObject({ expected: 10, status: 'behind', daysLeft: 0, neededPerWeek: 0 });
  });
});

describe('commission (pure)', () => {
  const plan = { baseRateBp: 1000, tiers: [{ fromPct: 100, rateBp: 1500 }, { fromPct: 150, rateBp: 2000 }], productRates: [{ product: 'Pacchetto sposa', rateBp: 500 }], capCents: null };
  const deal = (id: string, valueCents: number, product: string | null = null) => ({ id, valueCents, product });

  it('pays the base or the product rate up to the quota and each tier’s rate on the value past it', () => {
    const c = commissionOf(plan, { metric: 'won_value', target: 100_000 }, [deal('a', 60_000), deal('b', 60_000), deal('c', 50_000, 'pacchetto SPOSA')]);
    // a: 60 000 × 10 %; b: 40 000 × 10 % + 20 000 × 15 %; c: 30 000 × 15 % + 20 000 × 20 % (past 150 %, the tier beats the product rate).
    expect(c.lines.map((l) => l.commissionCents)).toEqual([6_000, 7_000, 8_500]);
    expect(c).toMatchObject({ earnedCents: 21_500, uncappedCents: 21_500, capped: false });
    // Below the quota a product keeps its own rate.
    expect(commissionOf(plan, { metric: 'won_value', target: 100_000 }, [deal('s', 40_000, 'Pacchetto sposa')]).earnedCents).toBe(2_000);
  });

  it('stops at the cap and says so', () => {
    const c = commissionOf({ ...plan, capCents: 15_000 }, { metric: 'won_value', target: 100_000 }, [deal('a', 60_000), deal('b', 60_000), deal('c', 50_000)]);
    expect(c).toMatchObject({ earnedCents: 15_000, uncappedCents: 21_500, capped: true });
  });

  it('with a count quota, pays the tier on the deals past it; without a quota, no tiers', () => {
    const deals = [deal('a', 10_000), deal('b', 10_000), deal('c', 10_000)];
    expect(commissionOf(plan, { metric: 'won_count', target: 2 }, deals).lines.map((l) => l.commissionCents)).toEqual([1_000, 1_000, 1_500]);
    expect(commissionOf(plan, null, [deal('a', 500_000)]).earnedCents).toBe(50_000);
  });
});

let salon: Salon;
let stages: Array<{ id: string; position: number }>;
let planId: string;

const insertDeal = (values: { owner: string; value: number; status: 'open' | 'won'; closedAt?: string; product?: string; postcode?: string; city?: string; source?: string; stage?: number }) =>
  asService(async (tx) => {
    const [row] = await tx.query<{ id: string }>(
      `insert into public.deals (workspace_id, title, owner_user_id, stage_id, value_cents, status, closed_at, last_activity_at, product, postcode, city, source)
       values ($1, 'Convenzione – Hotel Brera', $2, $3, $4, $5, $6::timestamptz, coalesce($6::timestamptz, '2026-12-10T10:00:00Z'), $7, $8, $9, $10) returning id`,
      [salon.workspace.id, values.owner, stages[values.stage ?? (values.status === 'won' ? 3 : 1)]!.id, values.value, values.status, values.closedAt ?? null,
        values.product ?? null, values.postcode ?? null, values.city ?? null, values.source ?? null],
    );
    return row!.id;
  });

beforeAll(async () => {
  salon = await createSalon('2026-11-30');
  await asService(async (tx) => {
    // A clean slate: only the deals each test writes count.
    await tx.query(`delete from public.deals where workspace_id = $1`, [salon.workspace.id]);
    await tx.query(`update public.leads set status = 'converted' where workspace_id = $1`, [salon.workspace.id]);
    stages = await tx.query(`select id, position from public.pipeline_stages where workspace_id = $1 order by position`, [salon.workspace.id]);
    [{ id: planId }] = (await tx.query<{ id: string }>(
      `insert into public.commission_plans (workspace_id, name, period, base_rate_bp, tiers, product_rates, cap_cents)
       values ($1, 'Standard', 'month', 1000, '[{"fromPct": 100, "rateBp": 1500}]', '[]', 20000) returning id`,
      [salon.workspace.id],
    )) as [{ id: string }];
  });
});

describe('quotas and the leaderboard, in the workspace’s time zone (PGlite and Postgres)', () => {
  it('counts a deal won just after local midnight in the new month, with attainment and pace against the quota', async () => {
    const now = new Date('2026-12-16T23:00:00Z');
    await insertDeal({ owner: salon.member.id, value: 100_000, status: 'won', closedAt: '2026-11-30T23:30:00Z' }); // 1 Dec 00:30 in Rome
    await insertDeal({ owner: salon.member.id, value: 50_000, status: 'won', closedAt: '2026-11-30T22:30:00Z' }); // 30 Nov in Rome
    await insertDeal({ owner: salon.admin.id, value: 40_000, status: 'open' });
    await setQuota(salon.owner, salon.workspace.id, { userId: salon.member.id, period: 'month', metric: 'won_value', target: 310_000 }, now);
    await setQuota(salon.owner, salon.workspace.id, { userId: null, period: 'month', metric: 'won_count', target: 4 }, now);
    // Setting it again replaces it rather than adding a second one.
    await setQuota(salon.admin, salon.workspace.id, { userId: salon.member.id, period: 'month', metric: 'won_value', target: 310_000, date: '2026-12-31' }, now);
    await expect(setQuota(salon.member, salon.workspace.id, { userId: salon.member.id, period: 'month', metric: 'won_value', target: 1 }, now)).rejects.toMatchObject({ status: 403 });

    const o = await salesOverview(salon.member, salon.workspace.id, { period: 'month' }, now);
    expect(o.period).toMatchObject({ startsOn: '2026-12-01', start: DEC_START, end: JAN_START });
    expect(o.people[0]).toMatchObject({ user_id: salon.member.id, revenue_cents: 100_000, won_count: 1, quota: { metric: 'won_value', target: 310_000, pace: { attainmentPct: 32, status: 'behind', expected: 160_000 } } });
    expect(o.people.find((p) => p.user_id === salon.admin.id)).toMatchObject({ revenue_cents: 0, pipeline_cents: 40_000, quota: null });
    expect(o.team).toMatchObject({ revenue_cents: 100_000, won_count: 1, quota: { metric: 'won_count', target: 4, pace: { attainmentPct: 25 } } });
    const nov = await salesOverview(salon.member, salon.workspace.id, { period: 'quarter' }, now);
    expect(nov.period.startsOn).toBe('2026-10-01');
    expect(nov.people[0]).toMatchObject({ revenue_cents: 150_000, won_count: 2 });
  });
});

describe('commissions: members see their own, owners and admins everyone’s (RLS)', () => {
  it('computes each person’s commission with tiers and the cap, and shows a member only theirs', async () => {
    const now = new Date('2026-12-16T23:00:00Z');
    await assignPlan(salon.owner, salon.workspace.id, { userId: salon.member.id, planId });
    await assignPlan(salon.owner, salon.workspace.id, { userId: salon.admin.id, planId });
    await expect(assignPlan(salon.member, salon.workspace.id, { userId: salon.member.id, planId: null })).rejects.toMatchObject({ status: 403 });

    const asOwner = await salesOverview(salon.owner, salon.workspace.id, { period: 'month' }, now);
    expect(asOwner.commissions.map((c) => c.user_id).sort()).toEqual([salon.admin.id, salon.member.id].sort());
    expect(asOwner.commissions.find((c) => c.user_id === salon.member.id)!.commission).toMatchObject({ earnedCents: 10_000 });
    const asMember = await salesOverview(salon.member, salon.workspace.id, { period: 'month' }, now);
    expect(asMember.commissions.map((c) => c.user_id)).toEqual([salon.member.id]);

    // The database itself refuses the rows: a member's own select reaches one assignment and one plan.
    const direct = await withUser(salon.member, (tx) => tx.query<{ user_id: string }>(`select user_id from public.commission_assignments`));
    expect(direct.map((r) => r.user_id)).toEqual([salon.member.id]);
    const adminSees = await withUser(salon.admin, (tx) => tx.query(`select user_id from public.commission_assignments where workspace_id = $1`, [salon.workspace.id]));
    expect(adminSees).toHaveLength(2);
    await expect(commissionWhatIf(salon.member, salon.workspace.id, { userId: salon.admin.id, dealIds: [salon.admin.id] }, now)).rejects.toMatchObject({ status: 404 });
  });

  it('estimates "if I close these two deals", past the quota and up to the cap, writing nothing', async () => {
    const now = new Date('2026-12-16T23:00:00Z');
    const a = await insertDeal({ owner: salon.member.id, value: 200_000, status: 'open' });
    const b = await insertDeal({ owner: salon.member.id, value: 100_000, status: 'open' });
    const w = await commissionWhatIf(salon.member, salon.workspace.id, { dealIds: [a, b] }, now);
    // 100 000 won + 210 000 at 10 % up to the 310 000 quota, 90 000 past it at 15 %: 45 500, capped at 20 000.
    expect(w.now.commission.earnedCents).toBe(10_000);
    expect(w.if_closed.commission).toMatchObject({ uncappedCents: 44_500, earnedCents: 20_000, capped: true });
    expect(w.gain_cents).toBe(10_000);
    const other = await insertDeal({ owner: salon.admin.id, value: 1_000, status: 'open' });
    await expect(commissionWhatIf(salon.member, salon.workspace.id, { dealIds: [a, other] }, now)).rejects.toMatchObject({ status: 422 });
    const [{ n }] = (await asService((tx) => tx.query<{ n: number }>(`select count(*)::int as n from public.deals where id = any($1) and status = 'open'`, [[a, b]]))) as [{ n: number }];
    expect(n).toBe(2);
  });
});

describe('territories: routing and the preview of a reassignment', () => {
  it('previews what a rule change would move, moves nothing until applied, then moves exactly that', async () => {
    const milan = await insertDeal({ owner: salon.owner.id, value: 5_000, status: 'open', postcode: '20121', city: 'Milano' });
    const monza = await insertDeal({ owner: salon.owner.id, value: 5_000, status: 'open', postcode: '20900', city: 'MONZA ' });
    const won = await insertDeal({ owner: salon.owner.id, value: 5_000, status: 'won', closedAt: '2026-12-02T10:00:00Z', postcode: '20122' });
    const [lead] = await asService((tx) =>
      tx.query<{ id: string }>(`insert into public.leads (workspace_id, name, phone, source, sector) values ($1, 'Hotel Brera', '+39 02 1234567', 'referral', 'Hospitality') returning id`, [salon.workspace.id]),
    );
    const { territoryId, otherModel } = await asService(async (tx) => {
      const [area] = await tx.query<{ id: string }>(`insert into public.sales_territory_models (workspace_id, name, active) values ($1, 'Area', true) returning id`, [salon.workspace.id]);
      const [channel] = await tx.query<{ id: string }>(`insert into public.sales_territory_models (workspace_id, name) values ($1, 'Channel') returning id`, [salon.workspace.id]);
      const [t] = await tx.query<{ id: string }>(
        `insert into public.sales_territories (workspace_id, model_id, name, owner_user_id, position, rules) values
           ($1, $2, 'Milano', $3, 0, '[{"field": "postcode", "value": "201"}]') returning id`,
        [salon.workspace.id, area!.id, salon.member.id],
      );
      await tx.query(`insert into public.sales_territories (workspace_id, model_id, name, owner_user_id, position, rules) values ($1, $2, 'Referrals', $3, 0, '[{"field": "source", "value": "referral"}]')`, [
        salon.workspace.id,
        channel!.id,
        salon.admin.id,
      ]);
      return { territoryId: t!.id, otherModel: channel!.id };
    });
    const ownerOf = (id: string, table = 'deals') => asService((tx) => tx.query<{ owner_user_id: string }>(`select owner_user_id from public.${table} where id = $1`, [id])).then((r) => r[0]!.owner_user_id);

    // Under the active model the Milan deal is out of place; the won deal keeps its credit.
    const view = await territoriesView(salon.member, salon.workspace.id);
    expect(view.outOfPlace.map((m) => [m.id, m.toUserId, m.territory])).toEqual([[milan, salon.member.id, 'Milano']]);

    // A city rule added: the preview names both deals, and nothing moves yet.
    const rules = [{ field: 'postcode' as const, value: '201' }, { field: 'city' as const, value: 'monza' }];
    const preview = await changeTerritory(salon.owner, salon.workspace.id, territoryId, { rules, apply: false });
    expect(preview).toMatchObject({ applied: false, activeModel: true });
    expect(preview.moves.map((m) => m.id).sort()).toEqual([milan, monza].sort());
    expect(await ownerOf(milan)).toBe(salon.owner.id);
    await expect(changeTerritory(salon.member, salon.workspace.id, territoryId, { rules, apply: true })).rejects.toMatchObject({ status: 403 });

    const applied = await changeTerritory(salon.owner, salon.workspace.id, territoryId, { rules, apply: true });
    expect(applied.moves).toHaveLength(2);
    expect([await ownerOf(milan), await ownerOf(monza), await ownerOf(won)]).toEqual([salon.member.id, salon.member.id, salon.owner.id]);
    expect((await territoriesView(salon.owner, salon.workspace.id)).outOfPlace).toEqual([]);

    // Switching the active model: the referral lead goes to the admin, once applied.
    const switchPreview = await activateModel(salon.owner, salon.workspace.id, { modelId: otherModel, apply: false });
    expect(switchPreview.moves.map((m) => [m.kind, m.id, m.toUserId])).toEqual([['lead', lead!.id, salon.admin.id]]);
    expect(await ownerOf(lead!.id, 'leads')).toBeNull();
    await activateModel(salon.owner, salon.workspace.id, { modelId: otherModel, apply: true });
    expect(await ownerOf(lead!.id, 'leads')).toBe(salon.admin.id);
    expect((await territoriesView(salon.owner, salon.workspace.id)).models[0]).toMatchObject({ id: otherModel, active: true });
  });
});

describe('call scripts', () => {
  it('lets the owner write a stage’s template and gives a deal its script with the customer, the deal and the last contact', async () => {
    const stage = stages[1]!;
    const body = 'Ciao {{customer}}, ti chiamo per «{{deal}}» ({{value}}), ci siamo sentiti il {{last_contact}}. {{unknown}}';
    await expect(setCallScript(salon.member, salon.workspace.id, stage.id, body)).rejects.toMatchObject({ status: 403 });
    await setCallScript(salon.owner, salon.workspace.id, stage.id, body);
    expect((await callScripts(salon.member, salon.workspace.id)).stages.find((s) => s.stage_id === stage.id)!.body).toBe(body);

    const [customer] = await asService((tx) => tx.query<{ id: string; name: string }>(`select id, name from public.customers where workspace_id = $1 and phone is not null limit 1`, [salon.workspace.id]));
    const dealId = await insertDeal({ owner: salon.member.id, value: 45_000, status: 'open', stage: 1 });
    await asService((tx) => tx.query(`update public.deals set customer_id = $2, last_activity_at = '2026-11-20T10:00:00Z' where id = $1`, [dealId, customer!.id]));
    const script = await dealScript(salon.member, salon.workspace.id, dealId);
    expect(script.script).toBe(`Ciao ${customer!.name}, ti chiamo per «Convenzione – Hotel Brera» (${money(45_000, 'it')}), ci siamo sentiti il 20 novembre. {{unknown}}`);
    expect(script.customer_phone).toEqual(expect.any(String));
  });
});

describe('agents', () => {
  it('drafts the follow-up of a stale deal from its stage’s call script, through autonomy', async () => {
    const now = new Date('2026-12-16T09:00:00Z');
    const stage = stages[2]!;
    await setCallScript(salon.owner, salon.workspace.id, stage.id, 'Buongiorno {{customer}}, riprendo «{{deal}}» dal {{last_contact}}.');
    const [customer] = await asService((tx) =>
      tx.query<{ id: string; name: string }>(`update public.customers set consent_messages = true where id = (select id from public.customers where workspace_id = $1 and phone is not null limit 1) returning id, name`, [salon.workspace.id]),
    );
    const dealId = await insertDeal({ owner: salon.member.id, value: 30_000, status: 'open', stage: 2 });
    await asService((tx) => tx.query(`update public.deals set customer_id = $2, last_activity_at = '2026-11-20T10:00:00Z' where id = $1`, [dealId, customer!.id]));
    const outcome = await asService((tx) => submitAction(tx, { workspaceId: salon.workspace.id, type: 'deal_follow_up', input: { dealId }, trigger: 'test', now }));
    expect(outcome.status).toMatch(/^(proposed|executed)$/);
    const [decision] = await asService((tx) => tx.query<{ args: { message: string } }>(`select args from public.agent_decisions where workspace_id = $1 and action_type = 'deal_follow_up' and args->>'dealId' = $2`, [salon.workspace.id, dealId]));
    expect(decision!.args.message).toBe(`Buongiorno ${customer!.name.split(' ')[0]}, riprendo «Convenzione – Hotel Brera» dal 20 novembre.`);
  });

  it('gives the sales agent the team’s quotas, pipeline and attainment by person id, without names', async () => {
    const out = (await salesStandingTool.handler({ period: 'month' }, { workspaceId: salon.workspace.id } as never)) as { people: Array<Record<string, unknown>>; pipelineByStage: unknown[] };
    expect(out.people.length).toBe(3);
    expect(out.people[0]).toEqual(expect.objectContaining({ user_id: expect.any(String), pipeline_cents: expect.any(Number) }));
    expect(JSON.stringify(out)).not.toMatch(/"name"/);
    expect(out.pipelineByStage).toHaveLength(4);
  });
});
