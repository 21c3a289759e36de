import { beforeAll, describe, expect, it } from 'vitest';
import * as dealsRoute from '@/app/api/workspaces/[workspaceId]/deals/route';
import * as planRoute from '@/app/api/workspaces/[workspaceId]/sales/commission/plans/[planId]/route';
import * as plansRoute from '@/app/api/workspaces/[workspaceId]/sales/commission/plans/route';
import * as modelsRoute from '@/app/api/workspaces/[workspaceId]/sales/territories/models/route';
import * as modelTerritoriesRoute from '@/app/api/workspaces/[workspaceId]/sales/territories/models/[modelId]/territories/route';
import { signAccessToken } from '@/lib/auth';
import { createSalon, type Salon } from '@/lib/autonomy/test-world';
import { asService, type SessionUser } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { assignPlan, salesOverview } from '.';

setupTestDatabase();

type Handler = (req: Request, ctx: { params: Promise<any> }) => Promise<Response>;
type Envelope = { data: any; error: { code: string; message: string } | null };

let salon: Salon;
let stranger: SessionUser;

/** Calls a route handler as a person (or nobody), the way the browser's session would. */
async function call(handler: Handler, user: SessionUser | null, params: Record<string, string>, body?: unknown): Promise<{ status: number; body: Envelope }> {
  const headers: Record<string, string> = user ? { authorization: `Bearer ${await signAccessToken(user)}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const req = new Request('http://test/api', { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const response = await handler(req, { params: Promise.resolve({ workspaceId: salon.workspace.id, ...params }) });
  return { status: response.status, body: (await response.json()) as Envelope };
}

const ownerOf = (id: string) =>
  asService((tx) => tx.query<{ owner_user_id: string | null }>(`select owner_user_id from public.deals where id = $1`, [id])).then((r) => r[0]!.owner_user_id);

const insertDeal = (owner: string, place: { postcode?: string; city?: string }) =>
  asService(async (tx) => {
    const [row] = await tx.query<{ id: string }>(
      `insert into public.deals (workspace_id, title, owner_user_id, stage_id, value_cents, postcode, city)
       select $1, 'Convenzione – Hotel Brera', $2, id, 10000, $3, $4 from public.pipeline_stages where workspace_id = $1 order by position limit 1 returning id`,
      [salon.workspace.id, owner, place.postcode ?? null, place.city ?? null],
    );
    return row!.id;
  });

beforeAll(async () => {
  salon = await createSalon('2026-11-30');
  stranger = await createUser('stranger');
  await asService(async (tx) => {
    // Only the deals and leads these tests write are routed.
    await tx.query(`delete from public.deals where workspace_id = $1`, [salon.workspace.id]);
    await tx.query(`update public.leads set status = 'converted' where workspace_id = $1`, [salon.workspace.id]);
  });
});

describe('commission plans through the API (owners and admins)', () => {
  const senior = {
    name: 'Senior',
    period: 'month',
    baseRateBp: 1000,
    tiers: [{ fromPct: 100, rateBp: 1500 }],
    productRates: [{ product: 'Pacchetto sposa', rateBp: 500 }],
    capCents: 20_000,
  };

  it('creates a plan with tiers, product rates and a cap, refuses members, bad tiers and a second plan of the same name', async () => {
    expect((await call(plansRoute.POST, null, {}, senior)).status).toBe(401);
    const refused = await call(plansRoute.POST, salon.member, {}, senior);
    expect(refused.status).toBe(403);
    expect((await call(plansRoute.GET, salon.member, {})).status).toBe(403);

    const created = await call(plansRoute.POST, salon.owner, {}, senior);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ ...senior, id: expect.any(String) });

    const backwards = await call(plansRoute.POST, salon.owner, {}, { ...senior, name: 'Backwards', tiers: [{ fromPct: 150, rateBp: 2000 }, { fromPct: 100, rateBp: 1500 }] });
    expect(backwards.status).toBe(422);
    expect((await call(plansRoute.POST, salon.owner, {}, { ...senior, baseRateBp: 10_001, name: 'Too much' })).status).toBe(422);
    expect((await call(plansRoute.POST, salon.admin, {}, senior)).status).toBe(409);

    const listed = await call(plansRoute.GET, salon.admin, {});
    expect(listed.status).toBe(200);
    expect(listed.body.data.plans.map((p: { name: string }) => p.name)).toEqual(['Senior']);
    expect(listed.body.data.people.map((p: { planId: string | null }) => p.planId)).toEqual([null, null, null]);
  });

  it('edits only the fields given, and the people on the plan earn by the new rules', async () => {
    const now = new Date('2026-12-16T09:00:00Z');
    const { body } = await call(plansRoute.GET, salon.owner, {});
    const planId = body.data.plans[0].id as string;
    await assignPlan(salon.owner, salon.workspace.id, { userId: salon.member.id, planId });
    await asService((tx) =>
      tx.query(
        `insert into public.deals (workspace_id, title, owner_user_id, stage_id, value_cents, status, closed_at)
         select $1, 'Won', $2, id, 400000, 'won', '2026-12-10T10:00:00Z' from public.pipeline_stages where workspace_id = $1 order by position desc limit 1`,
        [salon.workspace.id, salon.member.id],
      ),
    );
    // 10 % of €4,000 is €400, over the €200 cap.
    const before = await salesOverview(salon.member, salon.workspace.id, { period: 'month' }, now);
    expect(before.commissions[0]!.commission).toMatchObject({ earnedCents: 20_000, capped: true });

    const patch = (user: SessionUser, id: string, change: unknown) => call(planRoute.PATCH, user, { planId: id }, change);
    expect((await patch(salon.member, planId, { capCents: null })).status).toBe(403);
    const edited = await patch(salon.owner, planId, { baseRateBp: 800, capCents: null });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ name: 'Senior', baseRateBp: 800, capCents: null, tiers: senior.tiers, productRates: senior.productRates });
    const after = await salesOverview(salon.member, salon.workspace.id, { period: 'month' }, now);
    expect(after.commissions[0]!.commission).toMatchObject({ earnedCents: 32_000, capped: false });

    expect((await patch(salon.owner, salon.member.id, { baseRateBp: 1 })).status).toBe(404);
    expect((await patch(salon.owner, planId, { tiers: 'many' })).status).toBe(422);
  });
});

describe('territories through the API: a new one previewed, then applied', () => {
  let modelId: string;

  it('makes the first model the active one and later ones inactive', async () => {
    expect((await call(modelsRoute.POST, salon.member, {}, { name: 'Per zona' })).status).toBe(403);
    const first = await call(modelsRoute.POST, salon.owner, {}, { name: 'Per zona' });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ name: 'Per zona', active: true });
    modelId = first.body.data.id;
    expect((await call(modelsRoute.POST, salon.owner, {}, { name: 'Per canale' })).body.data).toMatchObject({ active: false });
    expect((await call(modelsRoute.POST, salon.owner, {}, { name: 'Per zona' })).status).toBe(409);
    expect((await call(modelsRoute.POST, salon.owner, {}, { name: ' ' })).status).toBe(422);
  });

  it('says what a new territory would move and writes nothing, then moves exactly that when applied', async () => {
    const milan = await insertDeal(salon.owner.id, { postcode: '20121' });
    const como = await insertDeal(salon.owner.id, { city: 'Como' });
    const territory = { name: 'Milano', ownerUserId: salon.member.id, rules: [{ field: 'postcode', value: '201' }] };
    const add = (user: SessionUser, body: unknown, model = modelId) => call(modelTerritoriesRoute.POST, user, { modelId: model }, body);

    expect((await add(salon.member, { ...territory, apply: false })).status).toBe(403);
    const preview = await add(salon.owner, territory);
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ applied: false, activeModel: true, territoryId: null });
    expect(preview.body.data.moves).toEqual([expect.objectContaining({ kind: 'deal', id: milan, fromUserId: salon.owner.id, toUserId: salon.member.id, territory: 'Milano' })]);
    expect(await ownerOf(milan)).toBe(salon.owner.id);
    const [{ n }] = (await asService((tx) => tx.query<{ n: number }>(`select count(*)::int as n from public.sales_territories where workspace_id = $1`, [salon.workspace.id]))) as [{ n: number }];
    expect(n).toBe(0);

    const applied = await add(salon.owner, { ...territory, apply: true });
    expect(applied.status).toBe(201);
    expect(applied.body.data).toMatchObject({ applied: true, territoryId: expect.any(String) });
    expect([await ownerOf(milan), await ownerOf(como)]).toEqual([salon.member.id, salon.owner.id]);

    expect((await add(salon.owner, { ...territory, name: 'Outsider', ownerUserId: stranger.id })).status).toBe(422);
    expect((await add(salon.owner, { ...territory, rules: [{ field: 'planet', value: 'Mars' }] })).status).toBe(422);
    expect((await add(salon.owner, territory, salon.member.id)).status).toBe(404);
  });
});

describe('POST /api/workspaces/:id/deals: a new deal goes to whoever its territory names', () => {
  it('routes by the active model, leaves a deal no rule matches unassigned, and refuses bad input with 4xx', async () => {
    const open = (user: SessionUser | null, body: unknown) => call(dealsRoute.POST, user, {}, body);
    const routed = await open(salon.admin, { title: 'Matrimonio Ferri', valueCents: 250_000, postcode: '20 145', product: 'Pacchetto sposa' });
    expect(routed.status).toBe(201);
    expect(routed.body.data).toMatchObject({ title: 'Matrimonio Ferri', status: 'open', ownerUserId: salon.member.id, territory: 'Milano' });

    const unrouted = await open(salon.member, { title: 'Evento Roma', valueCents: 90_000, city: 'Roma', source: 'referral' });
    expect(unrouted.status).toBe(201);
    expect(unrouted.body.data).toMatchObject({ ownerUserId: null, ownerName: null, territory: null });
    const board = await call(dealsRoute.GET, salon.member, {});
    expect(board.body.data.open.map((d: { id: string }) => d.id)).toEqual(expect.arrayContaining([routed.body.data.id, unrouted.body.data.id]));

    expect((await open(null, { title: 'x', valueCents: 1 })).status).toBe(401);
    expect((await open(stranger, { title: 'x', valueCents: 1 })).status).toBe(404);
    expect((await open(salon.member, { title: 'x', valueCents: -1 })).status).toBe(422);
    expect((await open(salon.member, { title: 'x', valueCents: 1, stageId: salon.member.id })).status).toBe(422);
    expect((await open(salon.member, { title: 'x', valueCents: 1, ownerUserId: salon.owner.id })).status).toBe(422);
  });
});
