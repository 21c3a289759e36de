import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { GET as getBrief } from '@/app/api/home/daily-brief/route';
import { PUT as putPrefs } from '@/app/api/home/prefs/route';
import { POST as decide } from '@/app/api/workspaces/[workspaceId]/decisions/[decisionId]/[action]/route';
import { createAgent } from '@/lib/agents';
import { signAccessToken } from '@/lib/auth';
import { approveDecision, cancelMessage, submitAction } from '@/lib/autonomy';
import { createSalon, type Salon } from '@/lib/autonomy/test-world';
import { asService } from '@/lib/db';
import { seedDemo } from '@/lib/demo';
import { findCandidates } from '@/lib/insights';
import { PLANETS } from '@/lib/planets';
import { createRoutine, runRoutineNow } from '@/lib/schedule';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { composeDailyBrief } from './brief';
import { DEFAULT_PREFS, getHomePrefs, normalizePrefs, saveHomePrefs } from './prefs';

setupTestDatabase();

const NOW = new Date('2026-11-30T06:00:00Z'); // Monday 07:00 in Rome
let salon: Salon;

beforeAll(async () => {
  salon = await createSalon('2026-11-30');
  const found = await asService((tx) => findCandidates(tx, salon.workspace.id, 'booking', NOW));
  // Two proposals; one approved (Done), one left waiting.
  for (const c of found.remindersDue.slice(0, 2)) {
    await asService((tx) => submitAction(tx, { workspaceId: salon.workspace.id, type: 'booking_reminder', input: { appointmentId: c.appointmentId }, trigger: 'test', now: NOW }));
  }
  const [first] = await asService((tx) =>
    tx.query<{ id: string; args_hash: string }>(`select id, args_hash from public.agent_decisions where workspace_id = $1 order by expires_at limit 1`, [salon.workspace.id]),
  );
  await approveDecision(salon.owner, salon.workspace.id, first!.id, { argsHash: first!.args_hash, now: NOW });
});

const bearer = async (user: Salon['owner']) => ({ authorization: `Bearer ${await signAccessToken(user)}` });

describe('the daily brief', () => {
  it('has the pulse, the proposals with what the owner approves, Done grouped, and the six planets', async () => {
    const brief = await composeDailyBrief(salon.owner, salon.workspace.id, { now: new Date(NOW.getTime() + 60_000) });
    expect(brief.canDecide).toBe(true);
    expect(brief.pulse).toMatchObject({ bookingsToday: 0, newLeads7d: expect.any(Number) });
    expect(brief.proposals).toHaveLength(1);
    expect(brief.proposals[0]).toMatchObject({ action_type: 'booking_reminder', status: 'proposed', channel: expect.any(String), message: expect.stringContaining('Studio Aurora') });
    expect(brief.proposals[0]!.args_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(brief.done).toEqual([expect.objectContaining({ actionType: 'booking_reminder', count: 1 })]);
    expect(brief.done[0]!.items[0]).toMatchObject({ status: 'executed', undoable: true, delivery: expect.objectContaining({ status: 'queued' }) });
    expect(brief.planets.map((p) => p.planet)).toEqual([...PLANETS]);
    expect(brief.planets.every((p) => p.hasData && ['good', 'watch', 'act'].includes(p.health) && p.autonomy === 'propose')).toBe(true);
    expect(brief.prefs).toEqual(DEFAULT_PREFS);
  });

  it('is read-only for members and invisible to strangers', async () => {
    const brief = await composeDailyBrief(salon.member, salon.workspace.id, { now: NOW });
    expect(brief).toMatchObject({ role: 'member', canDecide: false });
    expect(brief.proposals).toHaveLength(1);
    await expect(composeDailyBrief(await createUser('stranger'), salon.workspace.id)).rejects.toMatchObject({ status: 404 });
  });

  it('GET /api/home/daily-brief answers in the camelCase envelope; 401 without a session, 422 without a workspace', async () => {
    // The route reads the clock: hold it on the morning the proposals were made, before they expire.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(NOW.getTime() + 60_000));
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const ok = await getBrief(new Request(`http://test/api/home/daily-brief?workspace_id=${salon.workspace.id}`, { headers: await bearer(salon.owner) }));
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body).toMatchObject({ success: true, error: null, data: { workspaceId: salon.workspace.id, canDecide: true } });
    expect(Object.keys(body.data.proposals[0] ?? body.data.done[0].items[0])).toEqual(expect.arrayContaining(['actionType', 'argsHash', 'expiresAt']));
    expect((await getBrief(new Request(`http://test/api/home/daily-brief?workspace_id=${salon.workspace.id}`))).status).toBe(401);
    expect((await getBrief(new Request('http://test/api/home/daily-brief', { headers: await bearer(salon.owner) }))).status).toBe(422);
  });

  it('a member may not approve through the API', async () => {
    const brief = await composeDailyBrief(salon.owner, salon.workspace.id, { now: NOW });
    const proposal = brief.proposals[0]!;
    const params = Promise.resolve({ workspaceId: salon.workspace.id, decisionId: proposal.id, action: 'approve' });
    const refused = await decide(
      new Request('http://test', { method: 'POST', headers: { ...(await bearer(salon.member)), 'content-type': 'application/json' }, body: JSON.stringify({ argsHash: proposal.args_hash }) }),
      { params },
    );
    expect(refused.status).toBe(403);
  });
});

describe('routines in Done for you', () => {
  it('counts the routines sent in the last day, newest first, with the answer’s DM for whoever is in it', async () => {
    const world = await createSalon('2026-11-30');
    const nova = await createAgent(world.owner, { name: 'Nova', role: 'Front desk', runtime: 'local', backend: 'offline' });
    const routine = await createRoutine(world.owner, world.workspace.id, {
      agentId: nova.id,
      name: 'Morning bookings',
      instruction: 'How are bookings today?',
      schedule: { kind: 'cron', cron: '0 7 * * *' },
    });
    const first = await runRoutineNow(world.owner, world.workspace.id, routine.id);
    const second = await runRoutineNow(world.owner, world.workspace.id, routine.id);
    // Neither a run from two days ago nor one that could not be sent counts.
    await asService((tx) =>
      tx.query(
        `insert into public.routine_runs (workspace_id, routine_id, due_at, status, error, created_at)
         values ($1, $2, now() - interval '2 days', 'sent', null, now() - interval '2 days'), ($1, $2, now() - interval '1 minute', 'failed', 'Refused.', now() - interval '1 minute')`,
        [world.workspace.id, routine.id],
      ),
    );

    const forOwner = (await composeDailyBrief(world.owner, world.workspace.id)).routineRuns;
    expect(forOwner.count).toBe(2);
    expect(forOwner.items.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(forOwner.items[0]).toMatchObject({ routine_id: routine.id, routine_name: 'Morning bookings', agent_name: 'Nova', conversation_id: second.conversationId, ran_at: expect.any(Date) });

    // The member sees that the routines ran, not into the owner's DM.
    const forMember = (await composeDailyBrief(world.member, world.workspace.id)).routineRuns;
    expect(forMember.count).toBe(2);
    expect(forMember.items.map((r) => r.conversation_id)).toEqual([null, null]);
  });
});

describe('Home layout', () => {
  it('normalizes whatever is stored: every item once, pinned first', () => {
    expect(normalizePrefs({ sections: ['planets', 'planets', 'nope'], pinnedSections: ['done'], planets: ['web'], pinnedPlanets: [] })).toEqual({
      sections: ['done', 'planets', 'needs'],
      pinnedSections: ['done'],
      planets: ['web', 'booking', 'crm', 'sales', 'content', 'marketing'],
      pinnedPlanets: [],
    });
    expect(normalizePrefs('garbage')).toEqual(DEFAULT_PREFS);
  });

  it('is each person’s own: the member saves theirs, the owner keeps the default', async () => {
    const saved = await saveHomePrefs(salon.member, salon.workspace.id, { sections: ['planets', 'done', 'needs'], pinnedPlanets: ['sales'] });
    expect(saved.sections).toEqual(['planets', 'done', 'needs']);
    expect(saved.planets[0]).toBe('sales');
    expect(await getHomePrefs(salon.member, salon.workspace.id)).toEqual(saved);
    expect(await getHomePrefs(salon.owner, salon.workspace.id)).toEqual(DEFAULT_PREFS);
    expect((await composeDailyBrief(salon.member, salon.workspace.id, { now: NOW })).prefs).toEqual(saved);
    const bad = await putPrefs(
      new Request(`http://test/api/home/prefs?workspace_id=${salon.workspace.id}`, { method: 'PUT', headers: { ...(await bearer(salon.owner)), 'content-type': 'application/json' }, body: '{"sections":["kitchen"]}' }),
    );
    expect(bad.status).toBe(422);
  });
});

describe('the demo Home', () => {
  afterAll(() => vi.useRealTimers());

  it('is alive on a Monday morning (salon closed): reminders done, proposals waiting, one approval from a suggestion', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    const login = await seedDemo();
    const [owner] = await asService((tx) => tx.query<{ id: string; email: string }>(`select id, email from auth.users where email = $1`, [login!.email]));
    const brief = await composeDailyBrief(owner!, login!.workspaceId);
    expect(brief.done.find((g) => g.actionType === 'booking_reminder')!.count).toBeGreaterThan(0);
    expect(brief.proposals.length).toBeGreaterThan(3);
    expect(new Set(brief.proposals.map((p) => p.action_type))).toEqual(new Set(['waitlist_offer', 'win_back', 'deal_follow_up']));
    expect(brief.suggestions).toEqual([]);
    // Two win-backs were approved last week: the third approval brings "do this automatically?".
    const winBack = brief.proposals.find((p) => p.action_type === 'win_back')!;
    const approved = await approveDecision(owner!, login!.workspaceId, winBack.id, { argsHash: winBack.args_hash });
    expect(approved.suggestion).toMatchObject({ actionType: 'win_back', approvals: 3 });

    // No SMS or email provider is connected: not one of the demo's messages claims to have been sent.
    const messages = await asService((tx) =>
      tx.query<{ status: string; body: string; recipient_name: string }>(`select status, body, recipient_name from public.outbox_messages where workspace_id = $1`, [login!.workspaceId]),
    );
    expect(messages.length).toBeGreaterThan(3);
    expect(messages.filter((m) => m.status !== 'queued')).toEqual([]);
    // What customers read, sent or waiting for an OK: no "appointment for appointment", no name said twice.
    const decisions = await asService((tx) =>
      tx.query<{ message: string; name: string }>(`select args ->> 'message' as message, details ->> 'customerName' as name from public.agent_decisions where workspace_id = $1`, [
        login!.workspaceId,
      ]),
    );
    for (const { message, name } of [...decisions, ...messages.map((m) => ({ message: m.body, name: m.recipient_name }))]) {
      expect(message).not.toMatch(/appuntamento per appuntamento|appointment for appointment/);
      expect(message).not.toContain(name);
    }

    // Its history undoes like any execution: stopping a past reminder's queued message reverts its mark.
    const [past] = await asService((tx) =>
      tx.query<{ message_id: string; appointment_id: string }>(
        `select m.id as message_id, d.args ->> 'appointmentId' as appointment_id
           from public.agent_decisions d join public.outbox_messages m on m.decision_id = d.id
          where d.workspace_id = $1 and d.action_type = 'booking_reminder' and d.status = 'executed' and d.trigger = 'cron:analyze_planet_data'
          order by d.created_at limit 1`,
        [login!.workspaceId],
      ),
    );
    await expect(cancelMessage(owner!, login!.workspaceId, past!.message_id)).resolves.toMatchObject({ status: 'cancelled' });
    const [appointment] = await asService((tx) => tx.query(`select reminder_sent_at from public.appointments where id = $1`, [past!.appointment_id]));
    expect(appointment).toEqual({ reminder_sent_at: null });
    vi.useRealTimers();
  });
});
