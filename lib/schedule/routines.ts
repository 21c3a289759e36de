import { randomUUID } from 'node:crypto';
import { Cron } from 'croner';
import { z } from 'zod';
import { ApiError, invalidField, isUuid, notFound, rethrowAsApiError, validate } from '@/lib/api';
import { createConversation, sendMessage } from '@/lib/chat';
import { asService, getDb, withUser, type SessionUser, type Tx } from '@/lib/db';
import { log } from '@/lib/log';
import { claim, finish, processWorkerId, type Queue } from '@/lib/queue';
import { memberOrOwner, workspaceFor } from '@/lib/workspaces';

/**
 * Routines: a standing instruction for one of the workspace's agents, run on a schedule. When one comes
 * due, its instruction is written as a real message in the DM between the routine's creator (or, when
 * they have left, the workspace owner) and the agent, through the same send path as in the app, so the
 * agent gets a delivery and answers there. Owners and admins manage routines; members see them.
 */

export const MAX_ROUTINES_PER_AGENT = 10;
/** The scheduler looks every five minutes: nothing can run more often. */
export const MIN_INTERVAL_MINUTES = 5;
export const MAX_INTERVAL_MINUTES = 7 * 24 * 60;
/** Delivery attempts before a run is marked failed. */
const MAX_ATTEMPTS = 3;
const LEASE_SECONDS = 120;

export type RoutineSchedule = { kind: 'interval'; minutes: number } | { kind: 'cron'; cron: string };

/** A run is `pending` until its instruction is written in the DM (`sent`), or its attempts run out (`failed`). */
export const ROUTINE_RUN_STATUSES = ['pending', 'sent', 'failed'] as const;

export interface RoutineRun {
  id: string;
  dueAt: Date;
  status: (typeof ROUTINE_RUN_STATUSES)[number];
  manual: boolean;
  conversationId: string | null;
  messageId: string | null;
  error: string | null;
  createdAt: Date;
}

export interface Routine {
  id: string;
  workspaceId: string;
  agent: { id: string; name: string };
  name: string;
  instruction: string;
  schedule: RoutineSchedule;
  /** The zone a cron schedule is read in: the workspace's. */
  timeZone: string;
  enabled: boolean;
  /** Null while paused. */
  nextRunAt: Date | null;
  lastRun: RoutineRun | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const scheduleSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('interval'),
    minutes: z
      .number()
      .int('api.routines.wholeMinutes')
      .min(MIN_INTERVAL_MINUTES, 'api.routines.tooOften')
      .max(MAX_INTERVAL_MINUTES, 'api.routines.tooRarely'),
  }),
  z.object({ kind: z.literal('cron'), cron: z.string().trim().min(1, 'api.routines.cronRequired').max(100, 'api.field.maxChars') }),
]);

const fields = {
  name: z.string().trim().min(1, 'api.routines.nameRequired').max(80, 'api.field.maxChars'),
  instruction: z.string().trim().min(1, 'api.routines.instructionRequired').max(4000, 'api.field.maxChars'),
  schedule: scheduleSchema,
  enabled: z.boolean(),
};

export const routineInputSchema = z.object({ agentId: z.string().uuid('api.routines.chooseAgent'), ...fields, enabled: fields.enabled.default(true) });
export const routinePatchSchema = z
  .object(fields)
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, 'api.routines.nothingToChange');

/** The cron as croner reads it, in the workspace's zone; a sentence the admin can act on when it is not one. */
function cronOf(expression: string, timeZone: string): Cron {
  const fieldsCount = expression.trim().split(/\s+/).length;
  if (fieldsCount !== 5) {
    throw invalidField('schedule.cron', 'api.routines.cronFields', { expression });
  }
  let cron: Cron;
  try {
    cron = new Cron(expression, { timezone: timeZone });
  } catch (error) {
    throw invalidField('schedule.cron', 'api.routines.cronInvalid', { expression, reason: (error as Error).message });
  }
  // Runs closer together than the scheduler looks would be merged into one: refuse them instead.
  const runs = cron.nextRuns(12);
  if (runs.length === 0) throw invalidField('schedule.cron', 'api.routines.cronNeverRuns', { expression });
  for (let i = 1; i < runs.length; i++) {
    if (runs[i]!.getTime() - runs[i - 1]!.getTime() < MIN_INTERVAL_MINUTES * 60_000) {
      throw invalidField('schedule.cron', 'api.routines.cronTooOften', { expression, minutes: MIN_INTERVAL_MINUTES });
    }
  }
  return cron;
}

/**
 * When a schedule runs next after `after`. An interval keeps its cadence from `anchor` (the slot that
 * just ran), skipping the slots that passed meanwhile, so a scheduler that was down fires once, not once
 * per missed slot.
 */
export function nextRunAfter(schedule: RoutineSchedule, timeZone: string, after: Date, anchor = after): Date {
  if (schedule.kind === 'interval') {
    const step = schedule.minutes * 60_000;
    const missed = Math.max(0, Math.floor((after.getTime() - anchor.getTime()) / step));
    return new Date(anchor.getTime() + (missed + 1) * step);
  }
  const next = cronOf(schedule.cron, timeZone).nextRun(after);
  if (!next) throw invalidField('schedule.cron', 'api.routines.cronNeverAgain', { expression: schedule.cron });
  return next;
}

interface RoutineRow {
  id: string;
  workspace_id: string;
  agent_id: string;
  agent_name: string;
  name: string;
  instruction: string;
  interval_minutes: number | null;
  cron: string | null;
  time_zone: string;
  enabled: boolean;
  next_run_at: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  last_run: (Omit<RoutineRun, 'dueAt' | 'createdAt'> & { dueAt: string; createdAt: string }) | null;
}

const sameSchedule = (a: RoutineSchedule, b: RoutineSchedule) =>
  a.kind === 'interval' ? b.kind === 'interval' && a.minutes === b.minutes : b.kind === 'cron' && a.cron === b.cron;

const scheduleOf = (r: { interval_minutes: number | null; cron: string | null }): RoutineSchedule =>
  r.cron === null ? { kind: 'interval', minutes: r.interval_minutes! } : { kind: 'cron', cron: r.cron };

const toRoutine = (r: RoutineRow): Routine => ({
  id: r.id,
  workspaceId: r.workspace_id,
  agent: { id: r.agent_id, name: r.agent_name },
  name: r.name,
  instruction: r.instruction,
  schedule: scheduleOf(r),
  timeZone: r.time_zone,
  enabled: r.enabled,
  nextRunAt: r.next_run_at,
  lastRun: r.last_run ? { ...r.last_run, dueAt: new Date(r.last_run.dueAt), createdAt: new Date(r.last_run.createdAt) } : null,
  createdBy: r.created_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const RUN_JSON = `json_build_object('id', x.id, 'dueAt', x.due_at, 'status', x.status, 'manual', x.manual,
  'conversationId', x.conversation_id, 'messageId', x.message_id, 'error', x.error, 'createdAt', x.created_at)`;

// Read as the user: RLS shows a member their workspaces' routines, and the agents they may see.
const ROUTINES_SQL = `select r.id, r.workspace_id, r.agent_id, a.name as agent_name, r.name, r.instruction, r.interval_minutes, r.cron,
    w.time_zone, r.enabled, r.next_run_at, r.created_by, r.created_at, r.updated_at,
    (select ${RUN_JSON} from public.routine_runs x where x.routine_id = r.id order by x.created_at desc limit 1) as last_run
  from public.routines r
  join public.workspaces w on w.id = r.workspace_id
  join private.visible_agents() a on a.id = r.agent_id`;

async function readRoutine(tx: Tx, workspaceId: string, routineId: string): Promise<Routine> {
  const [row] = isUuid(routineId) ? await tx.query<RoutineRow>(`${ROUTINES_SQL} where r.workspace_id = $1 and r.id = $2`, [workspaceId, routineId]) : [];
  if (!row) throw notFound('routine');
  return toRoutine(row);
}

const requireWorkspace = (user: SessionUser, workspaceId: string, manage: boolean) =>
  workspaceFor(user, workspaceId, manage ? { who: 'managers', what: 'manageRoutines' } : undefined);

/** The workspace's routines, oldest first, each with its latest run. Any member. */
export async function listRoutines(user: SessionUser, workspaceId: string): Promise<Routine[]> {
  await requireWorkspace(user, workspaceId, false);
  const rows = await withUser(user, (tx) =>
    tx.query<RoutineRow>(`${ROUTINES_SQL} where r.workspace_id = $1 order by r.created_at, r.id`, [workspaceId]),
  ).catch(rethrowAsApiError);
  return rows.map(toRoutine);
}

export async function createRoutine(user: SessionUser, workspaceId: string, input: z.input<typeof routineInputSchema>): Promise<Routine> {
  const data = validate(routineInputSchema, input);
  const workspace = await requireWorkspace(user, workspaceId, true);
  // Computed paused too: it is what checks the schedule.
  const next = nextRunAfter(data.schedule, workspace.timeZone, new Date());
  const nextRunAt = data.enabled ? next : null;
  return withUser(user, async (tx) => {
    const [agent] = await tx.query(`select 1 from public.workspace_agents where workspace_id = $1 and agent_id = $2`, [workspaceId, data.agentId]);
    if (!agent) throw invalidField('agentId', 'api.routines.agentNotHere');
    const [row] = await tx.query<{ id: string }>(
      `insert into public.routines (workspace_id, agent_id, name, instruction, interval_minutes, cron, enabled, next_run_at, created_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
      [
        workspaceId,
        data.agentId,
        data.name,
        data.instruction,
        data.schedule.kind === 'interval' ? data.schedule.minutes : null,
        data.schedule.kind === 'cron' ? data.schedule.cron : null,
        data.enabled,
        nextRunAt,
        user.id,
      ],
    );
    return readRoutine(tx, workspaceId, row!.id);
  }).catch(rethrowAsApiError);
}

/** Changes a routine. A new schedule, or resuming it, counts from now. */
export async function updateRoutine(user: SessionUser, workspaceId: string, routineId: string, patch: z.input<typeof routinePatchSchema>): Promise<Routine> {
  const data = validate(routinePatchSchema, patch);
  await requireWorkspace(user, workspaceId, true);
  return withUser(user, async (tx) => {
    const current = await readRoutine(tx, workspaceId, routineId);
    const schedule = data.schedule ?? current.schedule;
    const enabled = data.enabled ?? current.enabled;
    // The same schedule sent again (an edit form sends it with every change) keeps the next run.
    const newSchedule = data.schedule !== undefined && !sameSchedule(data.schedule, current.schedule);
    const reschedule = newSchedule || (enabled && !current.enabled);
    // A new schedule is checked even when the routine stays paused.
    const next = reschedule ? nextRunAfter(schedule, current.timeZone, new Date()) : current.nextRunAt;
    const nextRunAt = enabled ? next : null;
    await tx.query(
      `update public.routines set name = $3, instruction = $4, interval_minutes = $5, cron = $6, enabled = $7, next_run_at = $8
        where workspace_id = $1 and id = $2`,
      [
        workspaceId,
        routineId,
        data.name ?? current.name,
        data.instruction ?? current.instruction,
        schedule.kind === 'interval' ? schedule.minutes : null,
        schedule.kind === 'cron' ? schedule.cron : null,
        enabled,
        nextRunAt,
      ],
    );
    return readRoutine(tx, workspaceId, routineId);
  }).catch(rethrowAsApiError);
}

export async function deleteRoutine(user: SessionUser, workspaceId: string, routineId: string): Promise<void> {
  await requireWorkspace(user, workspaceId, true);
  const deleted = isUuid(routineId)
    ? await withUser(user, (tx) => tx.query(`delete from public.routines where workspace_id = $1 and id = $2 returning id`, [workspaceId, routineId])).catch(
        rethrowAsApiError,
      )
    : [];
  if (deleted.length === 0) throw notFound('routine');
}

/** Runs a routine now, whatever its schedule (paused ones too), and returns the run once it is written. */
export async function runRoutineNow(user: SessionUser, workspaceId: string, routineId: string): Promise<RoutineRun> {
  await requireWorkspace(user, workspaceId, true);
  const [run] = isUuid(routineId)
    ? await asService((tx) =>
        tx.query<{ id: string }>(
          `insert into public.routine_runs (workspace_id, routine_id, due_at, manual)
           select workspace_id, id, clock_timestamp(), true from public.routines where workspace_id = $1 and id = $2
           returning id`,
          [workspaceId, routineId],
        ),
      )
    : [];
  if (!run) throw notFound('routine');
  await deliverPendingRuns(run.id);
  const [out] = await asService((tx) => tx.query<RoutineRun>(`select ${RUN_COLUMNS} from public.routine_runs where id = $1`, [run.id]));
  return out!;
}

/** How many runs a routine's history shows. */
export const RUN_HISTORY_LIMIT = 20;

/** A routine's latest runs, newest first, at most RUN_HISTORY_LIMIT. Any member, under RLS. */
export async function listRoutineRuns(user: SessionUser, workspaceId: string, routineId: string): Promise<RoutineRun[]> {
  await requireWorkspace(user, workspaceId, false);
  if (!isUuid(routineId)) throw notFound('routine');
  const runs = await withUser(user, async (tx) => {
    const [routine] = await tx.query(`select 1 from public.routines where workspace_id = $1 and id = $2`, [workspaceId, routineId]);
    if (!routine) return null;
    return tx.query<RoutineRun>(`select ${RUN_COLUMNS} from public.routine_runs where routine_id = $1 order by created_at desc, id desc limit ${RUN_HISTORY_LIMIT}`, [routineId]);
  }).catch(rethrowAsApiError);
  if (!runs) throw notFound('routine');
  return runs;
}

const RUN_COLUMNS = `id, due_at as "dueAt", status, manual, conversation_id as "conversationId", message_id as "messageId", error, created_at as "createdAt"`;

/**
 * The scheduler's first half: every routine due at `now` gets a run for the slot it was due, and its
 * next slot. Due rows are locked and skipped by a concurrent tick, and a slot's run is unique, so a tick
 * that runs twice fires each slot once. Three statements per hundred due routines, whatever the number.
 * Returns how many runs it created.
 */
export async function scheduleDueRoutines(now: Date): Promise<number> {
  let created = 0;
  for (;;) {
    const batch = await asService(async (tx) => {
      const due = await tx.query<{ id: string; workspace_id: string; interval_minutes: number | null; cron: string | null; next_run_at: Date; time_zone: string }>(
        `select r.id, r.workspace_id, r.interval_minutes, r.cron, r.next_run_at, w.time_zone
           from public.routines r join public.workspaces w on w.id = r.workspace_id
          where r.next_run_at <= $1
          order by r.next_run_at
          for update of r skip locked
          limit 100`,
        [now],
      );
      if (due.length === 0) return 0;
      const ids = due.map((r) => r.id);
      const inserted = await tx.query(
        `insert into public.routine_runs (workspace_id, routine_id, due_at)
         select * from unnest($1::uuid[], $2::uuid[], $3::text[]::timestamptz[])
         on conflict (routine_id, due_at) do nothing returning id`,
        [due.map((r) => r.workspace_id), ids, due.map((r) => r.next_run_at.toISOString())],
      );
      created += inserted.length;
      const next = due.map((r) => {
        try {
          return nextRunAfter(scheduleOf(r), r.time_zone, now, r.next_run_at).toISOString();
        } catch (error) {
          // A cron that no longer runs (or a zone the runtime dropped): pause it rather than retry forever.
          log('warn', 'routine paused: no next run', { routineId: r.id, error });
          return null;
        }
      });
      await tx.query(
        `update public.routines r set next_run_at = u.next::timestamptz, enabled = u.next is not null
           from unnest($1::uuid[], $2::text[]) as u(id, next) where r.id = u.id`,
        [ids, next],
      );
      return due.length;
    });
    if (batch < 100) return created;
  }
}

interface ClaimedRun {
  id: string;
  workspace_id: string;
  routine_id: string;
  routine_name: string;
  instruction: string;
  agent_id: string;
  created_by: string | null;
  attempts: number;
}

// Routine runs for the one lease primitive (lib/queue): a pending run is ready until claimed; a claimed
// one stays pending under its lease, and is claimable again once the lease ran out or its sender's
// process died. Oldest first; one claimed at a time.
export const routineRuns: Queue = {
  table: 'public.routine_runs',
  idType: 'uuid',
  ready: (t) => `${t}.status = 'pending' and ${t}.lease_expires_at is null`,
  leased: (t) => `${t}.status = 'pending' and ${t}.lease_expires_at is not null`,
  scope: (t, at) => `(${at.scope}::uuid is null or ${t}.id = ${at.scope}::uuid)`,
  order: (t) => `${t}.created_at`,
  attempts: {
    max: MAX_ATTEMPTS,
    giveUp: () => `status = 'failed', error = 'The run was not written: its sender stopped ${MAX_ATTEMPTS} times while writing it.'`,
  },
  onClaim: () => '',
  returning: 'r.id, r.workspace_id, r.routine_id, r.attempts',
  view: (rows) => `
    select k.exhausted, k.id, k.workspace_id, k.routine_id, r.name as routine_name, r.instruction, r.agent_id, r.created_by, k.attempts
      from ${rows} k join public.routines r on r.id = k.routine_id`,
};

/**
 * The scheduler's second half, and Run now: writes each pending run's message. A run is claimed under a
 * lease, so two senders never write the same one and a crashed sender's run is sent by the next tick;
 * a run whose message is already there (the sender crashed after writing it) is only marked sent.
 */
export async function deliverPendingRuns(onlyRunId?: string): Promise<{ sent: number; failed: number }> {
  const outcome = { sent: 0, failed: 0 };
  const owner = randomUUID();
  for (;;) {
    const claimed = await claim<ClaimedRun>(await getDb(), routineRuns, { owner, worker: processWorkerId(), leaseSeconds: LEASE_SECONDS, scope: onlyRunId ?? null });
    outcome.failed += claimed.filter((run) => run.exhausted).length;
    const run = claimed.find((row) => !row.exhausted);
    if (!run) {
      if (claimed.length > 0) continue;
      return outcome;
    }
    try {
      const sent = await writeRunMessage(run);
      await asService((tx) =>
        finish(tx, routineRuns, {
          owner,
          rows: [{ id: run.id, conversation_id: sent.conversationId, message_id: sent.messageId }],
          types: { conversation_id: 'uuid', message_id: 'uuid' },
          set: (_r, v) => `status = 'sent', conversation_id = ${v}.conversation_id, message_id = ${v}.message_id, error = null, sent_at = now()`,
        }),
      );
      outcome.sent += 1;
    } catch (error) {
      // A refusal with a reason (the agent left, nobody to write as) will not change on a retry.
      const final = error instanceof ApiError || run.attempts >= MAX_ATTEMPTS;
      const message = error instanceof ApiError ? error.message : `The run could not be written (${(error as Error).message}).`;
      log(final ? 'warn' : 'info', 'routine run not delivered', { runId: run.id, attempt: run.attempts, error });
      await asService((tx) =>
        final
          ? finish(tx, routineRuns, { owner, rows: [{ id: run.id, error: message }], types: { error: 'text' }, set: (_r, v) => `status = 'failed', error = ${v}.error` })
          : // Not final: the lease stays, so the run waits for a later tick instead of being retried at once.
            tx.query(`update public.routine_runs set error = $3 where id = $1 and lease_owner = $2`, [run.id, owner, message]),
      );
      if (final) outcome.failed += 1;
    }
  }
}

async function writeRunMessage(run: ClaimedRun): Promise<{ conversationId: string; messageId: string }> {
  // Only a run claimed again can have been written already: its earlier sender crashed after writing it.
  const [existing] =
    run.attempts > 1
      ? await asService((tx) =>
          tx.query<{ id: string; conversation_id: string }>(
            `select id, conversation_id from public.messages
              where workspace_id = $1 and payload -> 'via' ->> 'kind' = 'routine' and payload -> 'via' ->> 'runId' = $2::text limit 1`,
            [run.workspace_id, run.id],
          ),
        )
      : [];
  if (existing) return { conversationId: existing.conversation_id, messageId: existing.id };
  const person = await memberOrOwner(run.workspace_id, run.created_by);
  if (!person) throw notFound('routineWorkspace');
  const { conversation } = await createConversation(person, { kind: 'dm', workspaceId: run.workspace_id, agentIds: [run.agent_id] });
  const sent = await sendMessage({ kind: 'person', user: person }, conversation.id, run.instruction, {
    payload: { via: { kind: 'routine', routineId: run.routine_id, routineName: run.routine_name, runId: run.id } },
  });
  return { conversationId: conversation.id, messageId: sent.id };
}
