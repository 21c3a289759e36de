import { beforeAll, describe, expect, it } from 'vitest';
import * as dealRoute from '@/app/api/workspaces/[workspaceId]/deals/[dealId]/route';
import * as boardRoute from '@/app/api/workspaces/[workspaceId]/deals/route';
import { signAccessToken } from '@/lib/auth';
import { createSalon, type Salon } from '@/lib/autonomy/test-world';
import { asService, withUser, type SessionUser } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';

setupTestDatabase();

let salon: Salon;
let stranger: SessionUser;
let stages: Array<{ id: string; name: string }>;

beforeAll(async () => {
  salon = await createSalon();
  stranger = await createUser('stranger');
  stages = await asService((tx) =>
    tx.query<{ id: string; name: string }>(`select id, name from public.pipeline_stages where workspace_id = $1 order by position`, [salon.workspace.id]),
  );
});

type Envelope = { data: Record<string, any> | null; error: { code: string; message: string } | null };

async function call(
  user: SessionUser | null,
  method: 'GET' | 'PATCH',
  path: { workspaceId: string; dealId?: string; query?: string },
  body?: string,
): Promise<{ status: number; body: Envelope }> {
  const url = `http://test/api/workspaces/${path.workspaceId}/deals${path.dealId ? `/${path.dealId}` : ''}${path.query ?? ''}`;
  const headers: Record<string, string> = user ? { authorization: `Bearer ${await signAccessToken(user)}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const req = new Request(url, { method, headers, body });
  const response = path.dealId
    ? await dealRoute.PATCH(req, { params: Promise.resolve({ workspaceId: path.workspaceId, dealId: path.dealId }) })
    : await boardRoute.GET(req, { params: Promise.resolve({ workspaceId: path.workspaceId }) });
  return { status: response.status, body: (await response.json()) as Envelope };
}

const board = (user: SessionUser, query = '') => call(user, 'GET', { workspaceId: salon.workspace.id, query });
const patch = (user: SessionUser | null, dealId: string, change: unknown) =>
  call(user, 'PATCH', { workspaceId: salon.workspace.id, dealId }, typeof change === 'string' ? change : JSON.stringify(change));
const dealRow = (id: string) =>
  asService((tx) => tx.query<{ stage_id: string; status: string; closed_at: Date | null; last_activity_at: Date; owner_user_id: string }>(
    `select stage_id, status, closed_at, last_activity_at, owner_user_id from public.deals where id = $1`, [id],
  )).then((rows) => rows[0]!);

describe('GET /api/workspaces/:id/deals', () => {
  it('gives a member the stages in order, the open deals with owner and age, recent closed ones and the owners', async () => {
    const { status, body } = await board(salon.member);
    expect(status).toBe(200);
    const data = body.data!;
    expect(data.stages.map((s: { name: string }) => s.name)).toEqual(['Nuovo contatto', 'Preventivo', 'Trattativa', 'Vinto']);
    expect(data.open).toHaveLength(12);
    expect(data.open[0]).toMatchObject({ title: expect.any(String), valueCents: expect.any(Number), ownerUserId: salon.owner.id, ownerName: 'owner', ageDays: expect.any(Number) });
    expect(data.open.every((d: { status: string }) => d.status === 'open')).toBe(true);
    expect(data.closed.every((d: { status: string }) => d.status !== 'open')).toBe(true);
    expect(data.owners.map((o: { name: string }) => o.name).sort()).toEqual(['admin', 'member', 'owner']);
  });

  it('filters by owner: one person’s deals, or the ones nobody owns', async () => {
    const [deal] = (await board(salon.member)).body.data!.open as Array<{ id: string }>;
    await asService((tx) => tx.query(`update public.deals set owner_user_id = $2 where id = $1`, [deal!.id, salon.member.id]));
    const mine = (await board(salon.member, `?owner=${salon.member.id}`)).body.data!;
    expect(mine.open.map((d: { id: string }) => d.id)).toEqual([deal!.id]);
    const owners = (await board(salon.member, `?owner=${salon.owner.id}`)).body.data!;
    expect(owners.open).toHaveLength(11);
    expect((await board(salon.member, '?owner=none')).body.data!.open).toEqual([]);
    await asService((tx) => tx.query(`update public.deals set owner_user_id = $2 where id = $1`, [deal!.id, salon.owner.id]));
  });

  it('answers 401 without a session, 404 to a stranger and for a malformed id, 422 for an owner that is not an id', async () => {
    expect((await call(null, 'GET', { workspaceId: salon.workspace.id })).status).toBe(401);
    expect(await call(stranger, 'GET', { workspaceId: salon.workspace.id })).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    expect((await call(salon.member, 'GET', { workspaceId: 'nope' })).status).toBe(404);
    expect(await board(salon.member, '?owner=bob')).toMatchObject({ status: 422, body: { error: { code: 'validation_failed' } } });
  });
});

describe('PATCH /api/workspaces/:id/deals/:dealId', () => {
  it('lets a member move a deal someone else owns to the next stage; it stays there and counts as activity', async () => {
    const deal = ((await board(salon.member)).body.data!.open as Array<{ id: string; stageId: string }>).find((d) => d.stageId === stages[0]!.id)!;
    const before = await dealRow(deal.id);
    const moved = await patch(salon.member, deal.id, { stageId: stages[1]!.id });
    expect(moved).toMatchObject({ status: 200, body: { data: { id: deal.id, stageId: stages[1]!.id, status: 'open' } } });
    const after = await dealRow(deal.id);
    expect(after).toMatchObject({ stage_id: stages[1]!.id, owner_user_id: salon.owner.id });
    expect(after.last_activity_at.getTime()).toBeGreaterThan(before.last_activity_at.getTime());
    // The same move again changes nothing (a retry is harmless).
    expect((await patch(salon.member, deal.id, { stageId: stages[1]!.id })).status).toBe(200);
    expect((await dealRow(deal.id)).last_activity_at).toEqual(after.last_activity_at);
  });

  it('marks won or lost, which takes the deal off the board; a closed deal cannot move until reopened', async () => {
    const [deal] = (await board(salon.member)).body.data!.open as Array<{ id: string }>;
    expect((await patch(salon.member, deal!.id, { status: 'won' })).body.data).toMatchObject({ status: 'won', closedAt: expect.any(String) });
    const after = (await board(salon.member)).body.data!;
    expect(after.open.some((d: { id: string }) => d.id === deal!.id)).toBe(false);
    expect(after.closed.find((d: { id: string }) => d.id === deal!.id)).toMatchObject({ status: 'won' });
    expect(await patch(salon.member, deal!.id, { stageId: stages[2]!.id })).toMatchObject({ status: 409, body: { error: { code: 'conflict' } } });
    expect((await patch(salon.member, deal!.id, { status: 'open' })).body.data).toMatchObject({ status: 'open', closedAt: null });
    expect((await patch(salon.member, deal!.id, { status: 'lost' })).body.data).toMatchObject({ status: 'lost' });
    expect((await dealRow(deal!.id)).closed_at).not.toBeNull();
  });

  it('refuses bad input with a 4xx and changes nothing', async () => {
    const [deal] = (await board(salon.member)).body.data!.open as Array<{ id: string; stageId: string }>;
    const other = await createSalon('2026-11-30', 'Elsewhere');
    const [foreignStage] = await asService((tx) => tx.query<{ id: string }>(`select id from public.pipeline_stages where workspace_id = $1 limit 1`, [other.workspace.id]));
    const before = await dealRow(deal!.id);

    expect((await patch(null, deal!.id, { status: 'won' })).status).toBe(401);
    expect(await patch(stranger, deal!.id, { status: 'won' })).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    expect(await patch(salon.member, deal!.id, { stageId: foreignStage!.id })).toMatchObject({ status: 422, body: { error: { code: 'validation_failed' } } });
    expect((await patch(salon.member, deal!.id, { status: 'maybe' })).status).toBe(422);
    expect((await patch(salon.member, deal!.id, { stageId: stages[1]!.id, status: 'won' })).status).toBe(422);
    expect((await patch(salon.member, deal!.id, '{not json')).status).toBe(400);
    expect((await patch(salon.member, '00000000-0000-4000-8000-000000000000', { status: 'won' })).status).toBe(404);
    // A deal of another workspace, asked for under this one: not found.
    const [foreignDeal] = await asService((tx) => tx.query<{ id: string }>(`select id from public.deals where workspace_id = $1 limit 1`, [other.workspace.id]));
    expect((await patch(salon.member, foreignDeal!.id, { status: 'won' })).status).toBe(404);
    expect(await dealRow(deal!.id)).toEqual(before);
  });

  it('is enforced by RLS: a stranger’s direct update reaches no deal', async () => {
    const updated = await withUser(stranger, (tx) => tx.query(`update public.deals set stage_id = stage_id where workspace_id = $1 returning id`, [salon.workspace.id]));
    expect(updated).toEqual([]);
  });
});
