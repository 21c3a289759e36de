import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST as finishRoute } from '@/app/api/onboarding/finish/route';
import { GET as getRoute, PUT as putRoute } from '@/app/api/onboarding/route';
import { POST as skipRoute } from '@/app/api/onboarding/skip/route';
import { GET as analysisRoute, POST as runNowRoute } from '@/app/api/workspaces/[workspaceId]/analysis/route';
import { analyzePlanetData } from '@/inngest/functions/analyze-planet-data';
import { startRuntime, type TestRuntime } from '@/inngest/testing';
import { createAgent } from '@/lib/agents';
import { ACCESS_COOKIE, signAccessToken } from '@/lib/auth';
import { getAutonomy } from '@/lib/autonomy';
import { createSalon, type Salon } from '@/lib/autonomy/test-world';
import { asService, withUser, type SessionUser } from '@/lib/db';
import { composeDailyBrief } from '@/lib/home';
import { setupTestDatabase } from '@/test/db';
import { createUser, joinWorkspace } from '@/test/fixtures';

setupTestDatabase();

type Handler<P> = (req: Request, ctx: { params: Promise<P> }) => Promise<Response>;

async function call<P = Record<string, never>>(handler: Handler<P>, { method = 'GET', body, user, params }: { method?: string; body?: unknown; user?: SessionUser; params?: P } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (user) headers.cookie = `${ACCESS_COOKIE}=${await signAccessToken(user)}`;
  const req = new Request('http://localhost/api/onboarding', { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const res = await handler(req, { params: Promise.resolve(params ?? ({} as P)) });
  return { status: res.status, json: await res.json() };
}

const q = <T = Record<string, any>>(sql: string, params: unknown[] = []) => asService((tx) => tx.query<T>(sql, params));
const put = (user: SessionUser, body: Record<string, unknown>) => call(putRoute, { method: 'PUT', user, body });

const HOURS = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, opens: '09:00', closes: '19:00' }));
const SERVICES = [
  { name: 'Taglio donna', durationMinutes: 45, priceCents: 3800 },
  { name: 'Piega', durationMinutes: 30, priceCents: 2200 },
];
const STAFF = [{ name: 'Giulia' }, { name: 'Marco' }];

/** Answers every screen the way the phone flow does, one PUT each. */
async function answerAll(user: SessionUser, overrides: Record<string, unknown> = {}) {
  const steps = [
    { step: 'business', name: 'Salone Luce' },
    { step: 'sector', sector: 'hair_salon' },
    { step: 'place', timeZone: 'Europe/Rome', locale: 'en' },
    { step: 'hours', hours: HOURS },
    { step: 'services', services: SERVICES },
    { step: 'staff', staff: STAFF },
    { step: 'team' },
  ];
  for (const body of steps) {
    const res = await put(user, { ...body, ...(overrides[body.step] as object) });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
  }
}

describe('onboarding API', () => {
  it('is saved screen by screen and resumes where the person left it', async () => {
    const owner = await createUser('resume');
    expect((await call(getRoute, { user: owner })).json.data).toBeNull();
    await put(owner, { step: 'business', name: 'Salone Luce' });
    await put(owner, { step: 'sector', sector: 'hair_salon' });

    // Another device, later: the same answers and the next screen.
    const later = await call(getRoute, { user: owner });
    expect(later.json.data).toMatchObject({ step: 'place', answers: { name: 'Salone Luce', sector: 'hair_salon' }, workspaceId: null, completedAt: null });

    // Going back and changing the name keeps the rest, and resumes after the screen saved.
    const renamed = await put(owner, { step: 'business', name: 'Salone Aurora' });
    expect(renamed.json.data).toMatchObject({ step: 'sector', answers: { name: 'Salone Aurora', sector: 'hair_salon' } });
    // Saving the same screen twice changes nothing more (a retry after a lost answer).
    expect((await put(owner, { step: 'business', name: 'Salone Aurora' })).json.data.answers).toEqual(renamed.json.data.answers);
  });

  it('creates the team workspace with its hours, services, staff and a starter team that asks first; a retry gets the same one', async () => {
    const owner = await createUser('finish');
    await answerAll(owner);
    const preview = (await call(getRoute, { user: owner })).json.data;
    expect(preview.step).toBe('autonomy');
    expect(preview.team.map((a: { name: string }) => a.name)).toEqual(['Front desk', 'Bookings', 'Customers', 'Marketing']);

    const done = await call(finishRoute, { method: 'POST', user: owner });
    expect(done.status).toBe(201);
    const workspaceId: string = done.json.data.workspaceId;

    const [workspace] = await q(`select name, sector, time_zone, locale, is_personal, owner_id from public.workspaces where id = $1`, [workspaceId]);
    expect(workspace).toEqual({ name: 'Salone Luce', sector: 'hair_salon', time_zone: 'Europe/Rome', locale: 'en', is_personal: false, owner_id: owner.id });
    const hours = await q(`select weekday, to_char(opens, 'HH24:MI') as opens, to_char(closes, 'HH24:MI') as closes from public.opening_hours where workspace_id = $1 order by weekday`, [workspaceId]);
    expect(hours).toEqual(HOURS);
    expect(await q(`select name, duration_minutes, price_cents from public.services where workspace_id = $1 order by name`, [workspaceId])).toEqual([
      { name: 'Piega', duration_minutes: 30, price_cents: 2200 },
      { name: 'Taglio donna', duration_minutes: 45, price_cents: 3800 },
    ]);
    expect((await q(`select name from public.staff where workspace_id = $1 order by name`, [workspaceId])).map((s) => s.name)).toEqual(['Giulia', 'Marco']);

    const agents = await q<{ name: string; role: string; capabilities: string[]; runtime: string; visibility: string; places: string[] }>(
      `select a.name, a.role, a.capabilities, a.runtime, a.visibility,
              array(select wa.workspace_id::text from public.workspace_agents wa where wa.agent_id = a.id) as places
         from private.agents a where a.owner_user_id = $1 order by a.name`,
      [owner.id],
    );
    expect(agents.map((a) => [a.name, a.capabilities])).toEqual([
      ['Bookings', ['booking']],
      ['Customers', ['crm']],
      ['Front desk', []],
      ['Marketing', ['marketing']],
    ]);
    for (const agent of agents) {
      expect(agent.role.length).toBeGreaterThan(10);
      // The team belongs to the business, not to the person's personal workspace.
      expect(agent).toMatchObject({ runtime: 'hosted', visibility: 'pinned', places: [workspaceId] });
    }

    // Every planet of the new workspace starts on "Ask first".
    const autonomy = await getAutonomy(owner, workspaceId);
    expect(autonomy.planets.map((p) => p.autonomy)).toEqual(['propose', 'propose', 'propose', 'propose', 'propose', 'propose']);
    expect(autonomy.actions.every((a) => a.tier === 'propose')).toBe(true);

    // A retry (a lost answer, a second tab) gets the same workspace and writes nothing more.
    const again = await call(finishRoute, { method: 'POST', user: owner });
    expect(again).toMatchObject({ status: 200, json: { data: { workspaceId, created: false } } });
    expect(await q(`select count(*)::int as n from public.workspaces where owner_id = $1 and not is_personal`, [owner.id])).toEqual([{ n: 1 }]);
    expect(await q(`select count(*)::int as n from private.agents where owner_user_id = $1`, [owner.id])).toEqual([{ n: 4 }]);
    expect(await q(`select count(*)::int as n from public.services where workspace_id = $1`, [workspaceId])).toEqual([{ n: 2 }]);
    // Once done, the answers are closed: changes go through the workspace's settings.
    const late = await put(owner, { step: 'business', name: 'Other' });
    expect(late.status).toBe(409);
  });

  it('names the team in the workspace language and never takes a name the owner already uses', async () => {
    const owner = await createUser('italian');
    await answerAll(owner, { place: { timeZone: 'Europe/Rome', locale: 'it' }, sector: { sector: 'consulting' } });
    const { workspaceId } = (await call(finishRoute, { method: 'POST', user: owner })).json.data;
    const names = await q<{ name: string }>(
      `select a.name from private.agents a join public.workspace_agents wa on wa.agent_id = a.id where wa.workspace_id = $1 order by a.name`,
      [workspaceId],
    );
    expect(names.map((n) => n.name)).toEqual(['Clienti', 'Reception', 'Sito web', 'Vendite']);

    const salon = await createUser('second-agenda');
    await createAgent(salon, { name: 'Agenda', backend: 'offline' });
    await answerAll(salon, { place: { timeZone: 'Europe/Rome', locale: 'it' } });
    await call(finishRoute, { method: 'POST', user: salon });
    const own = await q<{ name: string }>(`select name from private.agents where owner_user_id = $1 order by name`, [salon.id]);
    expect(own.map((n) => n.name)).toEqual(['Agenda', 'Agenda 2', 'Clienti', 'Marketing', 'Reception']);
  });

  it('refuses bad input with a 4xx in the envelope and writes nothing', async () => {
    const owner = await createUser('bad');
    expect((await call(getRoute)).status).toBe(401);
    expect((await call(putRoute, { method: 'PUT', body: { step: 'business', name: 'X' } })).status).toBe(401);
    expect((await call(finishRoute, { method: 'POST' })).status).toBe(401);

    const backwards = await put(owner, { step: 'hours', hours: [{ weekday: 1, opens: '19:00', closes: '09:00' }] });
    expect(backwards.status).toBe(422);
    expect(Object.keys(backwards.json.error.details.fieldErrors)).toEqual(['hours.0.closes']);
    expect((await put(owner, { step: 'sector', sector: 'spaceport' })).status).toBe(422);
    expect((await put(owner, { step: 'services', services: [{ name: ' ', durationMinutes: 30, priceCents: 100 }] })).status).toBe(422);
    expect((await put(owner, { step: 'business', name: 'X', workspaceId: '00000000-0000-4000-8000-000000000000' })).status).toBe(422);
    expect((await put(owner, { step: 'autonomy' })).status).toBe(422);
    expect((await call(getRoute, { user: owner })).json.data).toBeNull();

    // Finishing before every screen is answered: 422 naming what is missing, and no workspace.
    await put(owner, { step: 'business', name: 'Half done' });
    const early = await call(finishRoute, { method: 'POST', user: owner });
    expect(early.status).toBe(422);
    expect(Object.keys(early.json.error.details.fieldErrors)).toEqual(['sector']);
    expect(await q(`select count(*)::int as n from public.workspaces where owner_id = $1`, [owner.id])).toEqual([{ n: 1 }]);
  });

  it('is nobody else’s: another person sees nothing of it, cannot change it and cannot finish it', async () => {
    const owner = await createUser('mine');
    const other = await createUser('theirs');
    await answerAll(owner);
    expect((await call(getRoute, { user: other })).json.data).toBeNull();
    // Straight at the database, under RLS: no row to read or change.
    const seen = await withUser(other, (tx) => tx.query(`select 1 from public.onboarding where user_id = $1`, [owner.id]));
    expect(seen).toEqual([]);
    const changed = await withUser(other, (tx) => tx.query(`update public.onboarding set answers = '{}' where user_id = $1 returning 1`, [owner.id]));
    expect(changed).toEqual([]);
    // Their own finish has their own (empty) answers, not the owner's.
    expect((await call(finishRoute, { method: 'POST', user: other })).status).toBe(422);
    // And a draft cannot be pointed at a workspace its person does not own.
    const salon = await createUser('salon-owner');
    const { workspaceId } = await (async () => {
      await answerAll(salon);
      return (await call(finishRoute, { method: 'POST', user: salon })).json.data as { workspaceId: string };
    })();
    await joinWorkspace(salon, workspaceId, owner);
    await expect(withUser(owner, (tx) => tx.query(`update public.onboarding set workspace_id = $2 where user_id = $1`, [owner.id, workspaceId]))).rejects.toThrow(/row-level security/);
    expect((await call(getRoute, { user: owner })).json.data).toMatchObject({ step: 'autonomy', workspaceId: null, completedAt: null });
  });

  it('can be skipped: the person lands on their personal workspace and finds the answers again later', async () => {
    const owner = await createUser('later');
    await put(owner, { step: 'business', name: 'Bottega' });
    const skipped = await call(skipRoute, { method: 'POST', user: owner });
    const [personal] = await q(`select id from public.workspaces where owner_id = $1 and is_personal`, [owner.id]);
    expect(skipped).toMatchObject({ status: 200, json: { data: { personalWorkspaceId: personal!.id } } });
    const back = (await call(getRoute, { user: owner })).json.data;
    expect(back).toMatchObject({ step: 'sector', answers: { name: 'Bottega' }, completedAt: null });
    expect(back.skippedAt).toBeTruthy();
  });
});

describe('a new workspace’s Home and "Run now"', () => {
  let salon: Salon;
  let runtime: TestRuntime | undefined;

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-30T15:00:00Z')); // 16:00 in Rome
    salon = await createSalon('2026-11-30', 'Salone Run');
  });
  afterAll(async () => {
    await runtime?.stop();
    vi.useRealTimers();
  });

  it('an onboarded workspace with no data: its agents have not looked, and Run now runs nothing and says so', async () => {
    const owner = await createUser('empty');
    await answerAll(owner);
    const { workspaceId } = (await call(finishRoute, { method: 'POST', user: owner })).json.data;
    const brief = await composeDailyBrief(owner, workspaceId);
    expect(brief.analysis).toMatchObject({ finishedEver: false, running: 0, claimedToday: false });
    expect(brief.planets.some((p) => p.hasData)).toBe(false);
    const run = await call(runNowRoute, { method: 'POST', user: owner, params: { workspaceId } });
    expect(run).toMatchObject({ status: 202, json: { data: { started: [], alreadyRunning: 0 } } });
    expect(await q(`select count(*)::int as n from private.analysis_days where workspace_id = $1`, [workspaceId])).toEqual([{ n: 0 }]);
    expect((await call(analysisRoute, { user: owner, params: { workspaceId } })).json.data).toMatchObject({ finishedEver: false, running: 0 });
  });

  it('with data: Run now starts the same runs as 06:00, they really run, and only then has the workspace been analysed', async () => {
    const workspaceId = salon.workspace.id;
    const before = await call(analysisRoute, { user: salon.owner, params: { workspaceId } });
    // Past 06:00 and not analysed today: the next hourly tick would take it.
    expect(before.json.data).toMatchObject({ finishedEver: false, claimedToday: false, nextRunAt: '2026-11-30T16:00:00.000Z' });

    expect((await call(runNowRoute, { method: 'POST', user: salon.member, params: { workspaceId } })).status).toBe(403);
    const stranger = await createUser('stranger');
    expect((await call(runNowRoute, { method: 'POST', user: stranger, params: { workspaceId } })).status).toBe(404);
    expect((await call(analysisRoute, { user: stranger, params: { workspaceId } })).status).toBe(404);
    expect((await call(runNowRoute, { method: 'POST', params: { workspaceId } })).status).toBe(401);

    const run = await call(runNowRoute, { method: 'POST', user: salon.admin, params: { workspaceId } });
    expect(run.status).toBe(202);
    expect([...run.json.data.started].sort()).toEqual(['booking', 'content', 'crm', 'marketing', 'sales', 'web']);
    expect((await call(analysisRoute, { user: salon.owner, params: { workspaceId } })).json.data).toMatchObject({ finishedEver: false, running: 6, claimedToday: true });
    // Pressed again while running: nothing starts twice.
    expect((await call(runNowRoute, { method: 'POST', user: salon.owner, params: { workspaceId } })).json.data).toEqual({ started: [], alreadyRunning: 6 });

    // The executor takes the runs up (started only now, so the running state above could be seen).
    runtime = await startRuntime('local executor', { functions: [analyzePlanetData] });
    await runtime.runUntilIdle();
    const after = (await call(analysisRoute, { user: salon.owner, params: { workspaceId } })).json.data;
    expect(after).toMatchObject({ finishedEver: true, running: 0, claimedToday: true, nextRunAt: '2026-12-01T05:00:00.000Z' });
    const insights = await q(`select planet from public.workspace_insights where workspace_id = $1 and insight_date = '2026-11-30'`, [workspaceId]);
    expect(insights.length).toBeGreaterThan(0);
    expect((await composeDailyBrief(salon.owner, workspaceId)).analysis.finishedEver).toBe(true);
  });
});
