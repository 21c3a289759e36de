import { z } from 'zod';
import { chooseBackend } from '@/lib/agent';
import { conflict, invalidField, rethrowAsApiError } from '@/lib/api';
import { createAgentSchema, insertAgent } from '@/lib/agents';
import { isTimeZone } from '@/lib/auth';
import { elevated, withUser, type SessionUser, type Tx } from '@/lib/db';
import { LOCALES } from '@/lib/i18n';
import { insertWorkspace, SECTOR_IDS } from '@/lib/workspaces';
import { freeName, starterTeam, type StarterAgent } from './team';

/**
 * The screens in order. `team` shows the starter agents, `autonomy` explains the levels and creates
 * the workspace; the row's `step` is where the person resumes.
 */
export const ONBOARDING_STEPS = ['business', 'sector', 'place', 'hours', 'services', 'staff', 'team', 'autonomy'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'api.onboarding.time');
const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));

export const openingHoursSchema = z
  .array(
    z
      .object({ weekday: z.number().int().min(1).max(7), opens: clock, closes: clock })
      .refine((h) => minutes(h.closes) > minutes(h.opens), { message: 'api.onboarding.closesAfterOpens', path: ['closes'] }),
  )
  .max(21);
export const servicesSchema = z
  .array(
    z.object({
      name: z.string().trim().min(1, 'api.onboarding.serviceName').max(120, 'api.field.maxChars'),
      durationMinutes: z.number().int().min(5).max(1440),
      priceCents: z.number().int().min(0).max(10_000_000),
    }),
  )
  .max(50);
export const staffSchema = z.array(z.object({ name: z.string().trim().min(1, 'api.onboarding.staffName').max(120, 'api.field.maxChars') })).max(50);

/** Every answer, each optional until its screen is saved. Read back through this too: a stored draft is never trusted. */
export const answersSchema = z.object({
  name: z.string().trim().min(1, 'api.workspaces.nameRequired').max(80, 'api.field.maxChars'),
  sector: z.enum(SECTOR_IDS),
  timeZone: z.string().max(64).refine(isTimeZone, 'api.field.unknownTimeZone'),
  locale: z.enum(LOCALES),
  hours: openingHoursSchema,
  services: servicesSchema,
  staff: staffSchema,
});
export type OnboardingAnswers = Partial<z.infer<typeof answersSchema>>;

/** One screen's answers; the informational screens carry none. */
export const saveStepSchema = z.discriminatedUnion('step', [
  z.object({ step: z.literal('business'), name: answersSchema.shape.name }).strict(),
  z.object({ step: z.literal('sector'), sector: answersSchema.shape.sector }).strict(),
  z.object({ step: z.literal('place'), timeZone: answersSchema.shape.timeZone, locale: answersSchema.shape.locale }).strict(),
  z.object({ step: z.literal('hours'), hours: openingHoursSchema }).strict(),
  z.object({ step: z.literal('services'), services: servicesSchema }).strict(),
  z.object({ step: z.literal('staff'), staff: staffSchema }).strict(),
  z.object({ step: z.literal('team') }).strict(),
]);
export type SaveStep = z.infer<typeof saveStepSchema>;

export interface Onboarding {
  step: OnboardingStep;
  answers: OnboardingAnswers;
  /** The workspace it created; null until the last step. */
  workspaceId: string | null;
  skippedAt: Date | null;
  completedAt: Date | null;
  /** The starter team the answers so far call for (empty until name, sector and language are known). */
  team: StarterAgent[];
}

interface OnboardingRow {
  step: OnboardingStep;
  answers: Record<string, unknown>;
  workspace_id: string | null;
  skipped_at: Date | null;
  completed_at: Date | null;
}

/** The stored answers that still pass their schema; anything else is dropped, as if never answered. */
function readAnswers(stored: Record<string, unknown>): OnboardingAnswers {
  const answers: Record<string, unknown> = {};
  for (const key of Object.keys(answersSchema.shape) as (keyof typeof answersSchema.shape)[]) {
    const parsed = answersSchema.shape[key].safeParse(stored[key]);
    if (stored[key] !== undefined && parsed.success) answers[key] = parsed.data;
  }
  return answers as OnboardingAnswers;
}

function toOnboarding(row: OnboardingRow): Onboarding {
  const answers = readAnswers(row.answers);
  const { name, sector, locale } = answers;
  return {
    step: row.step,
    answers,
    workspaceId: row.workspace_id,
    skippedAt: row.skipped_at,
    completedAt: row.completed_at,
    team: name && sector && locale ? starterTeam({ business: name, sector, locale }) : [],
  };
}

const select = `select step, answers, workspace_id, skipped_at, completed_at from public.onboarding where user_id = $1`;

/** The caller's onboarding, or null when they never started it (people who signed up before it existed, invited people). */
export async function getOnboarding(user: SessionUser): Promise<Onboarding | null> {
  const [row] = await withUser(user, (tx) => tx.query<OnboardingRow>(select, [user.id])).catch(rethrowAsApiError);
  return row ? toOnboarding(row) : null;
}

/** Saves one screen's answers and moves the resume point past it, in one statement. Saving the same answers again changes nothing. */
export async function saveStep(user: SessionUser, input: SaveStep): Promise<Onboarding> {
  const { step, ...answers } = input;
  const next = ONBOARDING_STEPS[ONBOARDING_STEPS.indexOf(step) + 1]!;
  return withUser(user, async (tx) => {
    await refuseWhenDone(tx, user);
    const [row] = await tx.query<OnboardingRow>(
      `insert into public.onboarding as o (user_id, step, answers) values ($1, $2, $3::jsonb)
       on conflict (user_id) do update set step = excluded.step, answers = o.answers || excluded.answers, updated_at = now()
       returning step, answers, workspace_id, skipped_at, completed_at`,
      [user.id, next, JSON.stringify(answers)],
    );
    return toOnboarding(row!);
  }).catch(rethrowAsApiError);
}

async function refuseWhenDone(tx: Tx, user: SessionUser) {
  const [row] = await tx.query<{ completed_at: Date | null }>(`select completed_at from public.onboarding where user_id = $1 for update`, [user.id]);
  if (row?.completed_at) throw conflict('api.onboarding.alreadyDone');
}

/** "Later": the person goes to their personal workspace; the answers so far stay for when they come back. */
export async function skipOnboarding(user: SessionUser): Promise<{ personalWorkspaceId: string }> {
  return withUser(user, async (tx) => {
    await refuseWhenDone(tx, user);
    await tx.query(
      `insert into public.onboarding as o (user_id, skipped_at) values ($1, now())
       on conflict (user_id) do update set skipped_at = now(), updated_at = now()`,
      [user.id],
    );
    const [personal] = await tx.query<{ id: string }>(`select id from public.workspaces where owner_id = $1 and is_personal`, [user.id]);
    return { personalWorkspaceId: personal!.id };
  }).catch(rethrowAsApiError);
}

/**
 * The last step: the team workspace with its opening hours, services and staff (written as the person,
 * under RLS) and its starter agents (private rows, written with the connection's role inside the same
 * transaction), then the link back here, all in one transaction. The row is locked first, so a retry or
 * a second tab waits and then gets the workspace the first one made.
 */
export async function finishOnboarding(user: SessionUser): Promise<{ workspaceId: string; created: boolean }> {
  return withUser(user, async (tx) => {
    const [row] = await tx.query<OnboardingRow>(`${select} for update`, [user.id]);
    if (row?.completed_at && row.workspace_id) return { workspaceId: row.workspace_id, created: false };
    if (row?.completed_at) throw conflict('api.onboarding.alreadyDone');
    const answers = row ? readAnswers(row.answers) : {};
    for (const field of ['name', 'sector', 'timeZone', 'locale', 'hours', 'services', 'staff'] as const) {
      if (answers[field] === undefined) throw invalidField(field, 'api.onboarding.stepMissing');
    }
    const a = answers as Required<OnboardingAnswers>;
    const workspace = await insertWorkspace(tx, user, { name: a.name, sector: a.sector, timeZone: a.timeZone, locale: a.locale });
    await tx.query(
      `insert into public.opening_hours (workspace_id, weekday, opens, closes)
       select $1, h.weekday, h.opens::time, h.closes::time from jsonb_to_recordset($2::jsonb) as h(weekday smallint, opens text, closes text)`,
      [workspace.id, JSON.stringify(a.hours)],
    );
    await tx.query(
      `insert into public.services (workspace_id, name, duration_minutes, price_cents)
       select $1, s.name, s."durationMinutes", s."priceCents" from jsonb_to_recordset($2::jsonb) as s(name text, "durationMinutes" int, "priceCents" int)`,
      [workspace.id, JSON.stringify(a.services)],
    );
    await tx.query(`insert into public.staff (workspace_id, name) select $1, s.name from jsonb_to_recordset($2::jsonb) as s(name text)`, [
      workspace.id,
      JSON.stringify(a.staff),
    ]);
    await elevated(tx, async (service) => {
      const existing = await service.query<{ name: string }>(`select lower(name) as name from private.agents where owner_user_id = $1`, [user.id]);
      const taken = new Set(existing.map((e) => e.name));
      for (const agent of starterTeam({ business: a.name, sector: a.sector, locale: a.locale })) {
        const name = freeName(agent.name, taken);
        taken.add(name.toLowerCase());
        // Parsed like any agent the owner makes; `instructions` is kept where lib/agents stores them.
        const data = createAgentSchema.parse({
          name,
          role: agent.role,
          capabilities: agent.capabilities,
          instructions: agent.instructions,
          backend: chooseBackend().id,
          runtime: 'hosted',
          workspaces: [workspace.id],
        });
        await insertAgent(service, user.id, data);
      }
    });
    await tx.query(`update public.onboarding set workspace_id = $2, completed_at = now(), step = 'autonomy', updated_at = now() where user_id = $1`, [
      user.id,
      workspace.id,
    ]);
    return { workspaceId: workspace.id, created: true };
  }).catch(rethrowAsApiError);
}
