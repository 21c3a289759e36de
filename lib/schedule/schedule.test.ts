import { describe, expect, it } from 'vitest';
import * as routineRoute from '@/app/api/workspaces/[workspaceId]/routines/[routineId]/route';
import * as runRoute from '@/app/api/workspaces/[workspaceId]/routines/[routineId]/run/route';
import * as runsRoute from '@/app/api/workspaces/[workspaceId]/routines/[routineId]/runs/route';
import * as routinesRoute from '@/app/api/workspaces/[workspaceId]/routines/route';
import { createAgent } from '@/lib/agents';
import { ApiError } from '@/lib/api';
import { signAccessToken } from '@/lib/auth';
import { createConversation, listMessages } from '@/lib/chat';
import { asService } from '@/lib/db';
import { createWorkspace, removeMember } from '@/lib/workspaces';
import { callRoute } from '@/lib/topics/testing';
import { setupTestDatabase } from '@/test/db';
import { createUser, joinWorkspace } from '@/test/fixtures';
import {
  createRoutine,
  deleteRoutine,
  deliverPendingRuns,
  listRoutineRuns,
  listRoutines,
  MAX_ROUTINES_PER_AGENT,
  RUN_HISTORY_LIMIT,
  runRoutineNow,
  scheduleDueRoutines,
  updateRoutine,
  type Routine,
} from './index';

setupTestDatabase();

/** A salon in Rome: the owner, an admin, a member, a stranger, and two agents nobody runs (their messages wait). */
async function salon() {
  const [owner, admin, member, stranger] = await Promise.all(['owner', 'admin', 'member', 'stranger'].map((n) => createUser(n)));
  const team = await createWorkspace(owner!, { name: 'Studio Aurora', timeZone: 'Europe/Rome' });
  await joinWorkspace(owner!, team.id, admin!, 'admin');
  await joinWorkspace(owner!, team.id, member!);
  const nova = await createAgent(owner!, { name: 'Nova', role: 'Front desk', runtime: 'local', backend: 'offline' });
  const atlas = await createAgent(owner!, { name: 'Atlas', role: 'Chief of staff', runtime: 'local', backend: 'offline' });
  return { owner: owner!, admin: admin!, member: member!, stranger: stranger!, team, nova, atlas };
}

type Salon = Awaited<ReturnType<typeof salon>>;

const morning = (s: Salon, extra: Partial<Parameters<typeof createRoutine>[2]> = {}) =>
  createRoutine(s.admin, s.team.id, {
    agentId: s.nova.id,
    name: 'Morning bookings',
    instruction: "Summarise yesterday's bookings and today's gaps.",
    schedule: { kind: 'cron', cron: '0 7 * * *' },
    ...extra,
  });

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** Makes a routine due at `at` (what the clock does in production). */
const dueAt = (routine: Routine, at: Date) =>
  asService((tx) => tx.query(`update public.routines set next_run_at = $2 where id = $1`, [routine.id, at]));

const runsOf = (routine: Routine) =>
  asService((tx) =>
    tx.query<{ status: string; due_at: Date; message_id: string | null; conversation_id: string | null; manual: boolean; error: string | null }>(
      `select status, due_at, message_id, conversation_id, manual, error from public.routine_runs where routine_id = $1 order by created_at`,
      [routine.id],
    ),
  );

const routineMessages = (workspaceId: string) =>
  asService((tx) =>
    tx.query<{ id: string; body: string; conversation_id: string; author_user_id: string; via: { kind: string; routineName: string } }>(
      `select id, body, conversation_id, author_user_id, payload -> 'via' as via from public.messages
        where workspace_id = $1 and payload -> 'via' ->> 'kind' = 'routine' order by seq`,
      [workspaceId],
    ),
  );

const deliveriesOf = (messageId: string) =>
  asService((tx) => tx.query<{ agent_id: string; status: string }>(`select agent_id, status from private.deliveries where message_id = $1`, [messageId]));

const romeTime = (d: Date) => new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Rome', hour: '2-digit', minute: '2-digit' }).format(d);

describe('managing routines', () => {
  it('an admin gives an agent a daily routine, read in the workspace time zone', async () => {
    const s = await salon();
    const before = Date.now();
    const routine = await morning(s);
    expect(routine).toMatchObject({ name: 'Morning bookings', agent: { id: s.nova.id, name: 'Nova' }, enabled: true, timeZone: 'Europe/Rome', lastRun: null });
    expect(romeTime(routine.nextRunAt!)).toBe('07:00');
    expect(routine.nextRunAt!.getTime()).toBeGreaterThan(before);
    expect(routine.nextRunAt!.getTime()).toBeLessThanOrEqual(before + 25 * 3600_000);
    // Members see it; strangers do not see the workspace at all.
    expect((await listRoutines(s.member, s.team.id)).map((r) => r.name)).toEqual(['Morning bookings']);
    expect((await refusal(listRoutines(s.stranger, s.team.id))).status).toBe(404);
  });

  it('an interval routine first runs one interval from now', async () => {
    const s = await salon();
    const before = Date.now();
    const routine = await morning(s, { schedule: { kind: 'interval', minutes: 360 } });
    expect(routine.nextRunAt!.getTime() - before).toBeGreaterThanOrEqual(360 * 60_000);
    expect(routine.nextRunAt!.getTime() - before).toBeLessThan(361 * 60_000);
  });

  it('refuses schedules that are not ones, or run more often than the scheduler looks, with a sentence and nothing written', async () => {
    const s = await salon();
    const cases: Array<[Parameters<typeof createRoutine>[2]['schedule'], RegExp]> = [
      [{ kind: 'cron', cron: 'every morning' }, /five fields/],
      [{ kind: 'cron', cron: '0 0 7 * * *' }, /five fields/],
      [{ kind: 'cron', cron: '0 25 * * *' }, /not a cron expression/],
      [{ kind: 'cron', cron: '*/2 * * * *' }, /more often than every 5 minutes/],
      [{ kind: 'interval', minutes: 3 }, /at most every 5 minutes/],
      [{ kind: 'interval', minutes: 20_000 }, /at least once a week/],
    ];
    for (const [schedule, message] of cases) {
      const error = await refusal(morning(s, { schedule }));
      expect(error.code, JSON.stringify(schedule)).toBe('validation_failed');
      expect(error.message).toMatch(message);
    }
    expect((await refusal(morning(s, { name: '  ' }))).message).toMatch(/Give the routine a name/);
    // Paused ones too, created or changed.
    expect((await refusal(morning(s, { enabled: false, schedule: { kind: 'cron', cron: '61 * * * *' } }))).code).toBe('validation_failed');
    const paused = await morning(s, { enabled: false });
    expect((await refusal(updateRoutine(s.admin, s.team.id, paused.id, { schedule: { kind: 'cron', cron: 'soon' } }))).code).toBe('validation_failed');
    await deleteRoutine(s.admin, s.team.id, paused.id);
    expect(await listRoutines(s.owner, s.team.id)).toEqual([]);
  });

  it('only owners and admins manage routines; an agent from outside the workspace is refused', async () => {
    const s = await salon();
    const routine = await morning(s);
    expect((await refusal(morning({ ...s, admin: s.member }))).status).toBe(403);
    expect((await refusal(updateRoutine(s.member, s.team.id, routine.id, { enabled: false }))).status).toBe(403);
    expect((await refusal(runRoutineNow(s.member, s.team.id, routine.id))).status).toBe(403);
    expect((await refusal(deleteRoutine(s.member, s.team.id, routine.id))).status).toBe(403);
    const elsewhere = await createAgent(s.stranger, { name: 'Echo', runtime: 'local', backend: 'offline' });
    const error = await refusal(morning(s, { agentId: elsewhere.id }));
    expect([error.code, error.message]).toEqual(['validation_failed', 'That agent is not in this workspace.']);
    expect((await listRoutines(s.owner, s.team.id)).map((r) => r.id)).toEqual([routine.id]);
  });

  it(`an agent has at most ${MAX_ROUTINES_PER_AGENT} routines in a workspace`, async () => {
    const s = await salon();
    for (let i = 1; i <= MAX_ROUTINES_PER_AGENT; i++) await morning(s, { name: `Routine ${i}` });
    const error = await refusal(morning(s, { name: 'One too many' }));
    expect(error.code).toBe('conflict');
    expect(error.message).toMatch(/already has 10 routines/);
    // Another agent is not affected.
    await morning(s, { agentId: s.atlas.id, name: 'Weekly review' });
    expect(await listRoutines(s.owner, s.team.id)).toHaveLength(MAX_ROUTINES_PER_AGENT + 1);
  });

  it('pausing clears the next run; resuming and rescheduling count from now', async () => {
    const s = await salon();
    const routine = await morning(s);
    const paused = await updateRoutine(s.admin, s.team.id, routine.id, { enabled: false });
    expect([paused.enabled, paused.nextRunAt]).toEqual([false, null]);
    const renamed = await updateRoutine(s.admin, s.team.id, routine.id, { name: 'Bookings at dawn' });
    expect([renamed.name, renamed.nextRunAt]).toEqual(['Bookings at dawn', null]);
    // Renaming an active interval routine, its schedule sent again as the edit form does, keeps its next run.
    const hourly = await morning(s, { name: 'Hourly', schedule: { kind: 'interval', minutes: 60 } });
    await dueAt(hourly, new Date(Date.now() + 10 * 60_000));
    const [before] = (await listRoutines(s.owner, s.team.id)).filter((r) => r.id === hourly.id);
    const edited = await updateRoutine(s.admin, s.team.id, hourly.id, { name: 'Every hour', schedule: { kind: 'interval', minutes: 60 } });
    expect(edited.nextRunAt).toEqual(before!.nextRunAt);
    const changed = await updateRoutine(s.admin, s.team.id, hourly.id, { schedule: { kind: 'interval', minutes: 120 } });
    expect(changed.nextRunAt!.getTime() - Date.now()).toBeGreaterThan(110 * 60_000);
    await deleteRoutine(s.admin, s.team.id, hourly.id);
    const resumed = await updateRoutine(s.admin, s.team.id, routine.id, { enabled: true, schedule: { kind: 'cron', cron: '30 8 * * 1-5' } });
    expect(romeTime(resumed.nextRunAt!)).toBe('08:30');
    expect((await refusal(updateRoutine(s.admin, s.team.id, routine.id, {}))).code).toBe('validation_failed');
    await deleteRoutine(s.admin, s.team.id, routine.id);
    expect(await listRoutines(s.owner, s.team.id)).toEqual([]);
    expect((await refusal(deleteRoutine(s.admin, s.team.id, routine.id))).status).toBe(404);
  });
});

describe('the scheduler', () => {
  it('writes a due routine in the creator DM with the agent, once, and schedules the next slot', async () => {
    const s = await salon();
    const routine = await morning(s);
    const slot = new Date(Date.now() - 60_000);
    await dueAt(routine, slot);
    const now = new Date();

    expect(await scheduleDueRoutines(now)).toBe(1);
    expect(await deliverPendingRuns()).toEqual({ sent: 1, failed: 0 });
    const [message, ...more] = await routineMessages(s.team.id);
    expect(more).toEqual([]);
    expect(message).toMatchObject({ body: "Summarise yesterday's bookings and today's gaps.", author_user_id: s.admin.id, via: { kind: 'routine', routineName: 'Morning bookings' } });
    // The DM between the admin and Nova, and Nova got the message to answer.
    const { conversation: dm } = await createConversation(s.admin, { kind: 'dm', workspaceId: s.team.id, agentIds: [s.nova.id] });
    expect(message!.conversation_id).toBe(dm.id);
    expect(await deliveriesOf(message!.id)).toEqual([{ agent_id: s.nova.id, status: 'pending' }]);
    expect((await listMessages(s.admin, dm.id)).messages.map((m) => m.body)).toEqual(["Summarise yesterday's bookings and today's gaps."]);

    const [listed] = await listRoutines(s.admin, s.team.id);
    expect(listed!.lastRun).toMatchObject({ status: 'sent', manual: false, conversationId: dm.id, messageId: message!.id, dueAt: slot });
    expect(romeTime(listed!.nextRunAt!)).toBe('07:00');
    expect(listed!.nextRunAt!.getTime()).toBeGreaterThan(now.getTime());

    // The same tick again (a retry, a second instance): nothing more is written.
    await dueAt(routine, slot);
    expect(await scheduleDueRoutines(now)).toBe(0);
    expect(await deliverPendingRuns()).toEqual({ sent: 0, failed: 0 });
    expect(await routineMessages(s.team.id)).toHaveLength(1);
  });

  it('after downtime an interval routine fires once and keeps its cadence', async () => {
    const s = await salon();
    const routine = await morning(s, { schedule: { kind: 'interval', minutes: 60 } });
    const now = new Date();
    const missed = new Date(now.getTime() - 5 * 3600_000 - 10 * 60_000); // five slots and ten minutes ago
    await dueAt(routine, missed);
    expect(await scheduleDueRoutines(now)).toBe(1);
    expect(await deliverPendingRuns()).toEqual({ sent: 1, failed: 0 });
    expect(await routineMessages(s.team.id)).toHaveLength(1);
    const [listed] = await listRoutines(s.owner, s.team.id);
    expect(listed!.nextRunAt).toEqual(new Date(missed.getTime() + 6 * 3600_000));
  });

  it('one tick fires every due routine once, each from its own slot, and pauses one whose cron never runs again', async () => {
    const s = await salon();
    const hourly = await morning(s, { name: 'Hourly', schedule: { kind: 'interval', minutes: 60 } });
    const daily = await morning(s, { name: 'Daily', agentId: s.atlas.id });
    const never = await morning(s, { name: 'Never again' });
    const now = new Date();
    const hourlySlot = new Date(now.getTime() - 10 * 60_000);
    await dueAt(hourly, hourlySlot);
    await dueAt(daily, new Date(now.getTime() - 60_000));
    await dueAt(never, new Date(now.getTime() - 60_000));
    // February 31st: a cron that passed validation once and has no next run (made here by hand).
    await asService((tx) => tx.query(`update public.routines set cron = '0 0 31 2 *' where id = $1`, [never.id]));

    expect(await scheduleDueRoutines(now)).toBe(3);
    expect((await Promise.all([hourly, daily, never].map(runsOf))).map((runs) => runs.length)).toEqual([1, 1, 1]);
    const byName = new Map((await listRoutines(s.owner, s.team.id)).map((r) => [r.name, r]));
    expect(byName.get('Hourly')!.nextRunAt).toEqual(new Date(hourlySlot.getTime() + 3600_000));
    expect(romeTime(byName.get('Daily')!.nextRunAt!)).toBe('07:00');
    expect(byName.get('Never again')).toMatchObject({ enabled: false, nextRunAt: null });
    expect(await scheduleDueRoutines(now)).toBe(0);
    expect(await deliverPendingRuns()).toEqual({ sent: 3, failed: 0 });
  });

  it('leaves paused routines and routines not yet due alone', async () => {
    const s = await salon();
    await updateRoutine(s.admin, s.team.id, (await morning(s)).id, { enabled: false });
    await morning(s, { name: 'Later', schedule: { kind: 'interval', minutes: 60 } });
    expect(await scheduleDueRoutines(new Date())).toBe(0);
    expect(await routineMessages(s.team.id)).toEqual([]);
  });

  it('a run whose sender crashed is sent once: after its lease, and never again when its message is already there', async () => {
    const s = await salon();
    const routine = await morning(s);
    const [a, b] = await asService((tx) =>
      tx.query<{ id: string }>(
        `insert into public.routine_runs (workspace_id, routine_id, due_at, lease_expires_at, attempts)
         values ($1, $2, now() - interval '1 day', now() + interval '1 minute', 1), ($1, $2, now() - interval '2 days', now() - interval '1 minute', 1)
         returning id`,
        [s.team.id, routine.id],
      ),
    );
    // The first is still leased to its sender; the second's sender crashed before writing anything.
    expect(await deliverPendingRuns()).toEqual({ sent: 1, failed: 0 });
    expect(await routineMessages(s.team.id)).toHaveLength(1);
    const statusOf = async (id: string) =>
      (await asService((tx) => tx.query<{ status: string }>(`select status from public.routine_runs where id = $1`, [id])))[0]!.status;
    expect([await statusOf(a!.id), await statusOf(b!.id)]).toEqual(['pending', 'sent']);
    // The first's sender crashed after writing its message but before marking it sent.
    const { conversation } = await createConversation(s.admin, { kind: 'dm', workspaceId: s.team.id, agentIds: [s.nova.id] });
    const [written] = await asService((tx) =>
      tx.query<{ id: string }>(
        `insert into public.messages (workspace_id, conversation_id, author_kind, author_user_id, author_name, body, payload)
         values ($1, $2, 'person', $3, 'Admin', 'x', jsonb_build_object('via', jsonb_build_object('kind', 'routine', 'runId', $4::text)))
         returning id`,
        [s.team.id, conversation.id, s.admin.id, a!.id],
      ),
    );
    await asService((tx) => tx.query(`update public.routine_runs set lease_expires_at = now() - interval '1 second' where id = $1`, [a!.id]));
    expect(await deliverPendingRuns()).toEqual({ sent: 1, failed: 0 });
    expect(await routineMessages(s.team.id)).toHaveLength(2);
    expect(await statusOf(a!.id)).toBe('sent');
    expect((await runsOf(routine)).map((r) => r.message_id)).toContain(written!.id);
  });

  it('when the creator has left, the run is written in the owner DM with the agent', async () => {
    const s = await salon();
    const routine = await morning(s);
    await removeMember(s.owner, s.team.id, s.admin.id);
    await dueAt(routine, new Date(Date.now() - 1000));
    await scheduleDueRoutines(new Date());
    expect(await deliverPendingRuns()).toEqual({ sent: 1, failed: 0 });
    const [message] = await routineMessages(s.team.id);
    expect(message!.author_user_id).toBe(s.owner.id);
  });
});

describe('run now', () => {
  it('writes the instruction at once, even for a paused routine, and returns the run with its DM', async () => {
    const s = await salon();
    const routine = await updateRoutine(s.admin, s.team.id, (await morning(s)).id, { enabled: false });
    const run = await runRoutineNow(s.owner, s.team.id, routine.id);
    expect(run).toMatchObject({ status: 'sent', manual: true, error: null });
    const [message] = await routineMessages(s.team.id);
    expect([run.conversationId, run.messageId]).toEqual([message!.conversation_id, message!.id]);
    // The run was written as the routine's creator, in their DM.
    expect(message!.author_user_id).toBe(s.admin.id);
    const [listed] = await listRoutines(s.owner, s.team.id);
    expect([listed!.enabled, listed!.nextRunAt, listed!.lastRun?.id]).toEqual([false, null, run.id]);
  });

  it('reports a routine that does not exist', async () => {
    const s = await salon();
    expect((await refusal(runRoutineNow(s.owner, s.team.id, 'not-a-uuid'))).status).toBe(404);
    expect((await refusal(runRoutineNow(s.owner, s.team.id, crypto.randomUUID()))).status).toBe(404);
  });
});

describe('run history', () => {
  it('lists a routine’s runs newest first to any member, scheduled and by hand, with the failed one’s reason', async () => {
    const s = await salon();
    const routine = await morning(s);
    await dueAt(routine, new Date(Date.now() - 60_000));
    await scheduleDueRoutines(new Date());
    await deliverPendingRuns();
    const byHand = await runRoutineNow(s.owner, s.team.id, routine.id);
    // A run the send path refused: the agent has left the workspace since.
    await asService((tx) =>
      tx.query(`insert into public.routine_runs (workspace_id, routine_id, due_at, status, error, created_at) values ($1, $2, now(), 'failed', 'Nova is no longer in this workspace.', now() + interval '1 second')`, [
        s.team.id,
        routine.id,
      ]),
    );

    const runs = await listRoutineRuns(s.member, s.team.id, routine.id);
    expect(runs.map((r) => [r.status, r.manual])).toEqual([
      ['failed', false],
      ['sent', true],
      ['sent', false],
    ]);
    expect(runs[0]!.error).toBe('Nova is no longer in this workspace.');
    expect(runs[1]!.id).toBe(byHand.id);
    expect(runs[2]).toMatchObject({ conversationId: byHand.conversationId, messageId: expect.any(String), dueAt: expect.any(Date) });
  });

  it(`shows the latest ${RUN_HISTORY_LIMIT} runs, and nothing of a routine the reader cannot see`, async () => {
    const s = await salon();
    const routine = await morning(s);
    await asService((tx) =>
      tx.query(
        `insert into public.routine_runs (workspace_id, routine_id, due_at, status, created_at)
         select $1, $2, t, 'sent', t from generate_series(now() - interval '29 days', now(), interval '1 day') t`,
        [s.team.id, routine.id],
      ),
    );
    const runs = await listRoutineRuns(s.owner, s.team.id, routine.id);
    expect(runs).toHaveLength(RUN_HISTORY_LIMIT);
    expect(runs[0]!.createdAt.getTime()).toBeGreaterThan(runs[RUN_HISTORY_LIMIT - 1]!.createdAt.getTime());

    expect((await refusal(listRoutineRuns(s.stranger, s.team.id, routine.id))).status).toBe(404);
    const elsewhere = await createWorkspace(s.owner, { name: 'Second shop' });
    expect((await refusal(listRoutineRuns(s.owner, elsewhere.id, routine.id))).status).toBe(404);
    expect((await refusal(listRoutineRuns(s.owner, s.team.id, 'not-a-uuid'))).status).toBe(404);
  });
});

describe('the REST API', () => {
  const bearer = async (user: { id: string; email: string }) => ({ authorization: `Bearer ${await signAccessToken(user)}` });

  it('creates, lists, changes, runs and deletes a routine in the one envelope, with clear errors', async () => {
    const s = await salon();
    const params = { workspaceId: s.team.id };
    const path = `/api/workspaces/${s.team.id}/routines`;
    const body = { agentId: s.nova.id, name: 'Morning bookings', instruction: 'Summarise the bookings.', schedule: { kind: 'cron', cron: '0 7 * * *' } };

    const created = await callRoute(routinesRoute.POST, 'POST', path, { headers: await bearer(s.owner), body, params });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(created.body.data).toMatchObject({ name: 'Morning bookings', schedule: { kind: 'cron', cron: '0 7 * * *' }, enabled: true, nextRunAt: expect.any(String) });

    const bad = await callRoute(routinesRoute.POST, 'POST', path, { headers: await bearer(s.owner), body: { ...body, schedule: { kind: 'cron', cron: 'daily' } }, params });
    expect([bad.status, bad.body.success, bad.body.error.code]).toEqual([422, false, 'validation_failed']);
    expect(bad.body.error.message).toMatch(/five fields/);
    const asMember = await callRoute(routinesRoute.POST, 'POST', path, { headers: await bearer(s.member), body, params });
    expect([asMember.status, asMember.body.error.message]).toEqual([403, 'Only the owner and admins can manage routines.']);
    expect((await callRoute(routinesRoute.GET, 'GET', path, { params })).status).toBe(401);

    const one = { ...params, routineId: id };
    const paused = await callRoute(routineRoute.PATCH, 'PATCH', `${path}/${id}`, { headers: await bearer(s.owner), body: { enabled: false }, params: one });
    expect(paused.body.data).toMatchObject({ enabled: false, nextRunAt: null });
    const run = await callRoute(runRoute.POST, 'POST', `${path}/${id}/run`, { headers: await bearer(s.owner), params: one });
    expect(run.status).toBe(201);
    expect(run.body.data).toMatchObject({ status: 'sent', manual: true, conversationId: expect.any(String) });
    const listed = await callRoute(routinesRoute.GET, 'GET', path, { headers: await bearer(s.member), params });
    expect(listed.body.data).toEqual([expect.objectContaining({ id, lastRun: expect.objectContaining({ id: run.body.data.id, status: 'sent' }) })]);
    const history = await callRoute(runsRoute.GET, 'GET', `${path}/${id}/runs`, { headers: await bearer(s.member), params: one });
    expect([history.status, history.body.data]).toEqual([200, [expect.objectContaining({ id: run.body.data.id, manual: true, createdAt: expect.any(String) })]]);

    const removed = await callRoute(routineRoute.DELETE, 'DELETE', `${path}/${id}`, { headers: await bearer(s.owner), params: one });
    expect(removed.body.data).toEqual({ deleted: true });
    expect((await callRoute(routineRoute.DELETE, 'DELETE', `${path}/${id}`, { headers: await bearer(s.owner), params: one })).status).toBe(404);
  });
});
