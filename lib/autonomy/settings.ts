import { z } from 'zod';
import { ACTION_PLANET, ACTION_TYPES, cancelQueuedMessages, type ActionType } from '@/lib/actions';
import { isUuid, notFound, rethrowAsApiError } from '@/lib/api';
import { elevated, withUser, type SessionUser, type Tx } from '@/lib/db';
import { PLANETS, type Planet } from '@/lib/planets';
import { requireManager } from './roles';
import type { Tier } from './tier';

export const AUTONOMY_LEVELS = ['off', 'propose', 'auto'] as const;
export type AutonomyLevel = (typeof AUTONOMY_LEVELS)[number];

/** Approvals of one action type after which the Home offers to do it automatically. */
export const PROMOTE_AFTER_APPROVALS = 3;

export interface PlanetAutonomy {
  planet: Planet;
  autonomy: AutonomyLevel;
  paused: boolean;
}

export interface ActionAutonomy {
  actionType: ActionType;
  planet: Planet;
  /** Promoted to automatic by the owner (on a planet at `propose`). */
  auto: boolean;
  /** What the action may do now, all switches considered. */
  tier: Tier;
}

export interface PromotionSuggestion {
  actionType: ActionType;
  planet: Planet;
  approvals: number;
}

export interface AutonomySettings {
  paused: boolean;
  planets: PlanetAutonomy[];
  actions: ActionAutonomy[];
  suggestions: PromotionSuggestion[];
}

/**
 * Every switch in one statement, defaults filled in (no row = propose, not paused), with each action's
 * effective tier from private.action_tier and the promotion suggestions: action types a person
 * approved at least PROMOTE_AFTER_APPROVALS times (since they last said "not now"; an approval taken
 * back with undo does not count) whose tier is still `propose`.
 */
export async function readAutonomy(tx: Tx, workspaceId: string): Promise<AutonomySettings> {
  const [row] = await tx.query<{
    paused: boolean;
    planets: Array<{ planet: Planet; autonomy: AutonomyLevel; paused: boolean }> | null;
    actions: Array<{ action_type: ActionType; auto: boolean; tier: Tier; approvals: number }>;
  }>(
    `select coalesce((select paused from public.workspace_autonomy where workspace_id = $1), false) as paused,
            (select json_agg(json_build_object('planet', planet, 'autonomy', autonomy, 'paused', paused))
               from public.workspace_planet_autonomy where workspace_id = $1) as planets,
            (select json_agg(json_build_object(
                      'action_type', t.type,
                      'auto', coalesce(x.auto, false),
                      'tier', private.action_tier($1, t.planet, t.type),
                      'approvals', (select count(*) from public.agent_decisions d
                                     where d.workspace_id = $1 and d.action_type = t.type and d.tier = 'propose'
                                       and d.decided_by is not null and d.status in ('approved', 'executed', 'failed')
                                       and (x.suggestion_dismissed_at is null or d.decided_at > x.suggestion_dismissed_at))))
               from unnest($2::text[], $3::text[]) as t(type, planet)
               left join public.workspace_action_autonomy x on x.workspace_id = $1 and x.action_type = t.type) as actions`,
    [workspaceId, [...ACTION_TYPES], ACTION_TYPES.map((t) => ACTION_PLANET[t])],
  );
  const stored = new Map((row!.planets ?? []).map((p) => [p.planet, p]));
  const actions = row!.actions.map((a) => ({ actionType: a.action_type, planet: ACTION_PLANET[a.action_type], auto: a.auto, tier: a.tier }));
  return {
    paused: row!.paused,
    planets: PLANETS.map((planet) => ({ planet, autonomy: stored.get(planet)?.autonomy ?? 'propose', paused: stored.get(planet)?.paused ?? false })),
    actions,
    suggestions: row!.actions
      .filter((a) => a.tier === 'propose' && Number(a.approvals) >= PROMOTE_AFTER_APPROVALS)
      .map((a) => ({ actionType: a.action_type, planet: ACTION_PLANET[a.action_type], approvals: Number(a.approvals) })),
  };
}

export async function getAutonomy(user: SessionUser, workspaceId: string): Promise<AutonomySettings> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  return withUser(user, async (tx) => {
    const [member] = await tx.query(`select 1 from public.workspace_members where workspace_id = $1 and user_id = $2`, [workspaceId, user.id]);
    if (!member) throw notFound('workspace');
    return readAutonomy(tx, workspaceId);
  }).catch(rethrowAsApiError);
}

export async function promotionSuggestions(user: SessionUser, workspaceId: string): Promise<PromotionSuggestion[]> {
  return (await getAutonomy(user, workspaceId)).suggestions;
}

/** One change per request: the workspace kill switch, a planet's level or kill switch, an action type's automation. */
export const autonomyChangeSchema = z.union([
  z.object({ paused: z.boolean() }).strict(),
  z
    .object({ planet: z.enum(PLANETS), autonomy: z.enum(AUTONOMY_LEVELS).optional(), paused: z.boolean().optional() })
    .strict()
    .refine((v) => v.autonomy !== undefined || v.paused !== undefined, 'api.autonomy.sendAutonomyOrPaused'),
  z.object({ actionType: z.enum(ACTION_TYPES), auto: z.boolean() }).strict(),
  // The answer to a promotion suggestion: yes turns the action automatic, "not now" hides it until
  // PROMOTE_AFTER_APPROVALS more approvals.
  z.object({ actionType: z.enum(ACTION_TYPES), suggestion: z.enum(['accept', 'dismiss']) }).strict(),
]);
export type AutonomyChange = z.infer<typeof autonomyChangeSchema>;

/**
 * Applies one change as the user (RLS lets only admins and the owner write these tables). Turning a
 * kill switch on also cancels the messages of its scope that are still queued: "stop" means nothing
 * else goes out.
 */
export async function changeAutonomy(user: SessionUser, workspaceId: string, change: AutonomyChange, now = new Date()): Promise<AutonomySettings> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  return withUser(user, async (tx) => {
    await requireManager(tx, user, workspaceId, 'changeAutonomy');
    const at = now.toISOString();
    if ('planet' in change) {
      await tx.query(
        `insert into public.workspace_planet_autonomy (workspace_id, planet, autonomy, paused, updated_by, updated_at)
         values ($1, $2, coalesce($3, 'propose'), coalesce($4, false), $5, $6)
         on conflict (workspace_id, planet) do update
           set autonomy = coalesce($3, workspace_planet_autonomy.autonomy), paused = coalesce($4, workspace_planet_autonomy.paused),
               updated_by = $5, updated_at = $6`,
        [workspaceId, change.planet, change.autonomy ?? null, change.paused ?? null, user.id, at],
      );
      if (change.paused) await elevated(tx, (s) => cancelQueuedMessages(s, { workspaceId, planet: change.planet }, now, 'Stopped by the planet’s kill switch.'));
    } else if ('actionType' in change) {
      const auto = 'auto' in change ? change.auto : change.suggestion === 'accept' ? true : null;
      await tx.query(
        `insert into public.workspace_action_autonomy (workspace_id, action_type, auto, suggestion_dismissed_at, updated_by, updated_at)
         values ($1, $2, coalesce($3, false), $4, $5, $6)
         on conflict (workspace_id, action_type) do update
           set auto = coalesce($3, workspace_action_autonomy.auto),
               suggestion_dismissed_at = coalesce($4, workspace_action_autonomy.suggestion_dismissed_at),
               updated_by = $5, updated_at = $6`,
        [workspaceId, change.actionType, auto, 'suggestion' in change && change.suggestion === 'dismiss' ? at : null, user.id, at],
      );
    } else {
      await tx.query(
        `insert into public.workspace_autonomy (workspace_id, paused, updated_by, updated_at) values ($1, $2, $3, $4)
         on conflict (workspace_id) do update set paused = $2, updated_by = $3, updated_at = $4`,
        [workspaceId, change.paused, user.id, at],
      );
      if (change.paused) await elevated(tx, (s) => cancelQueuedMessages(s, { workspaceId }, now, 'Stopped by the workspace kill switch.'));
    }
    return readAutonomy(tx, workspaceId);
  }).catch(rethrowAsApiError);
}
