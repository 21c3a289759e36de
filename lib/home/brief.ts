import type { ActionType } from '@/lib/actions';
import { notFound, rethrowAsApiError } from '@/lib/api';
import { decisionJoin, DECISION_VIEW, readAutonomy, type AutonomyLevel, type AutonomySettings, type DecisionView, type PromotionSuggestion, type Role } from '@/lib/autonomy';
import { defaultActions, type ResultInput } from '@/lib/cards';
import { withUser, type SessionUser, type Tx } from '@/lib/db';
import { analysisState, hasData, type AnalysisState } from '@/lib/insights';
import { computeAllPlanets, STEADY_PCT, type Finding, type Health, type MetricUnit, type Planet, type PlanetMetrics, type Pulse } from '@/lib/planets';
import type { SectorId } from '@/lib/workspaces';
import { normalizePrefs, type HomePrefs } from './prefs';

/** "Done for you" covers the last day: what ran overnight is what the owner wants to see at 7:30. */
export const DONE_WINDOW_HOURS = 24;
/** Cards in "Needs your OK": more than this is a list to work through elsewhere, not a morning glance. */
export const PROPOSALS_SHOWN = 20;
/** Individual actions listed under each "Done" group. */
export const DONE_ITEMS_SHOWN = 20;

/** The metric whose change is a planet's trend (its ring), and the number shown under it. */
export const TREND_METRIC: Record<Planet, string> = {
  booking: 'bookings_week',
  crm: 'leads_7d',
  sales: 'won_this_month',
  content: 'engagement_rate_30d',
  marketing: 'campaigns_sent_30d',
  web: 'visits_7d',
};

export type Trend = 'up' | 'down' | 'steady' | 'unknown';

export interface PlanetSummary {
  planet: Planet;
  health: Health;
  trend: Trend;
  changePct: number | null;
  headline: { metric: string; value: number | null; unit: MetricUnit };
  /** The worst of the health rules' findings (why the planet is not good); null when it is. */
  reason: Finding | null;
  /** The sector whose benchmark the planet was judged against. */
  sector: SectorId;
  autonomy: AutonomyLevel;
  paused: boolean;
  /** Insights of today nobody has looked at yet. */
  newInsights: number;
  /** Anything to measure at all: a planet with no data yet shows as waiting, not as healthy. */
  hasData: boolean;
}

export interface DoneGroup {
  actionType: ActionType;
  planet: Planet;
  count: number;
  items: DecisionView[];
}

/** A routine that ran in the window: its instruction was sent to its agent, whose answer is in the DM. */
export interface RoutineRunDone {
  id: string;
  routine_id: string;
  routine_name: string;
  agent_name: string;
  ran_at: Date;
  /** The DM it was written in, when the reader is in it (RLS decides); else null. */
  conversation_id: string | null;
}

export interface DailyBrief {
  workspaceId: string;
  timeZone: string;
  role: Role;
  /** Owners and admins approve, ignore and undo; members see the same brief read-only. */
  canDecide: boolean;
  generatedAt: Date;
  pulse: Pulse;
  /** The workspace kill switch is on. */
  paused: boolean;
  proposals: DecisionView[];
  proposalsTotal: number;
  done: DoneGroup[];
  /** Routines sent in the Done window: how many, and the latest DONE_ITEMS_SHOWN. */
  routineRuns: { count: number; items: RoutineRunDone[] };
  planets: PlanetSummary[];
  suggestions: PromotionSuggestion[];
  prefs: HomePrefs;
  /** The daily analysis: until one has finished, nothing on the Home may read as if the agents had looked. */
  analysis: AnalysisState;
}

export function trendOf(metrics: PlanetMetrics): { trend: Trend; changePct: number | null; headline: PlanetSummary['headline'] } {
  const name = TREND_METRIC[metrics.planet];
  const metric = metrics.metrics[name]!;
  const pct = metric.changePct ?? null;
  const trend: Trend = pct === null ? 'unknown' : pct > STEADY_PCT ? 'up' : pct < -STEADY_PCT ? 'down' : 'steady';
  return { trend, changePct: pct, headline: { metric: name, value: metric.value, unit: metric.unit } };
}

/** A planet's line on the Home and on the planets page: the same health, trend and autonomy on both. */
export function summarizePlanet(metrics: PlanetMetrics, autonomy: AutonomySettings, newInsights: number): PlanetSummary {
  const level = autonomy.planets.find((a) => a.planet === metrics.planet)!;
  return {
    planet: metrics.planet,
    health: metrics.health,
    ...trendOf(metrics),
    reason: metrics.findings[0] ?? null,
    sector: metrics.sector,
    autonomy: level.autonomy,
    paused: level.paused || autonomy.paused,
    newInsights,
    hasData: hasData(metrics),
  };
}

interface BriefRow {
  role: Role;
  time_zone: string;
  proposals: DecisionView[];
  proposals_total: number;
  done: Array<DecisionView & { group_count: number }>;
  routine_runs: { count: number; items: RoutineRunDone[] };
  new_insights: Record<string, number> | null;
  prefs: unknown;
}

/**
 * Everything the Home shows, composed at read time in one transaction as the user (RLS): the pulse and
 * planets (seven indexed queries in lib/planets), then one statement for the proposals, what was done
 * (decisions and routines), today's unseen insights and the person's layout, and one for the autonomy switches.
 */
export async function composeDailyBrief(user: SessionUser, workspaceId: string, options: { now?: Date } = {}): Promise<DailyBrief> {
  if (!/^[0-9a-f-]{36}$/i.test(workspaceId)) throw notFound('workspace');
  const now = options.now ?? new Date();
  return withUser(user, async (tx) => {
    const row = await readBrief(tx, user, workspaceId, now);
    if (!row) throw notFound('workspace');
    const { pulse, planets } = await computeAllPlanets(tx, workspaceId, { now, timeZone: row.time_zone });
    const autonomy = await readAutonomy(tx, workspaceId);
    const analysis = await analysisState(tx, workspaceId, now);

    const groups = new Map<ActionType, DoneGroup>();
    for (const { group_count, ...item } of row.done) {
      const group = groups.get(item.action_type) ?? { actionType: item.action_type, planet: item.planet, count: group_count, items: [] };
      group.items.push(item);
      groups.set(item.action_type, group);
    }

    return {
      workspaceId,
      timeZone: row.time_zone,
      role: row.role,
      canDecide: row.role !== 'member',
      generatedAt: now,
      pulse,
      paused: autonomy.paused,
      proposals: row.proposals,
      proposalsTotal: row.proposals_total,
      done: [...groups.values()].sort((a, b) => b.count - a.count),
      routineRuns: { count: row.routine_runs.count, items: row.routine_runs.items.map((r) => ({ ...r, ran_at: new Date(r.ran_at) })) },
      planets: planets.map((p) => summarizePlanet(p, autonomy, row.new_insights?.[p.planet] ?? 0)),
      suggestions: autonomy.suggestions,
      prefs: normalizePrefs(row.prefs),
      analysis,
    };
  }).catch(rethrowAsApiError);
}

async function readBrief(tx: Tx, user: SessionUser, workspaceId: string, now: Date): Promise<BriefRow | undefined> {
  const [row] = await tx.query<BriefRow>(
    `select m.role, w.time_zone,
            (select coalesce(json_agg(p), '[]') from (
               select ${DECISION_VIEW} from public.agent_decisions d ${decisionJoin()}
                where d.workspace_id = w.id and d.status = 'proposed' and d.expires_at > $3
                order by d.expires_at, d.created_at desc, d.id limit $5) p) as proposals,
            (select count(*)::int from public.agent_decisions d
              where d.workspace_id = w.id and d.status = 'proposed' and d.expires_at > $3) as proposals_total,
            -- Done: numbered per action type first, so only the listed ones pay for their view.
            (select coalesce(json_agg(x order by x.executed_at desc, x.id), '[]') from (
               select ${DECISION_VIEW}, r.group_count
                 from (select d0.id, (count(*) over kind)::int as group_count, row_number() over (kind order by d0.executed_at desc, d0.id) as rn
                         from public.agent_decisions d0
                        where d0.workspace_id = w.id and d0.status = 'executed'
                          and d0.executed_at > $3::timestamptz - make_interval(hours => $4)
                       -- Byte order: text collation is needlessly slow for grouping fixed identifiers.
                       window kind as (partition by d0.action_type collate "C")) r
                 join public.agent_decisions d on d.id = r.id
                 ${decisionJoin()}
                where r.rn <= $6) x) as done,
            -- Routines sent: counted over the window; the agent's name and the reader's view of the DM are
            -- looked up only for the runs listed (FILTER skips the others' arguments).
            (select jsonb_build_object('count', count(*)::int, 'items', coalesce(jsonb_agg(jsonb_build_object(
                      'id', x.id, 'routine_id', x.routine_id, 'routine_name', x.routine_name, 'ran_at', x.created_at,
                      'agent_name', (select a.name from private.visible_agents() a where a.id = x.agent_id),
                      'conversation_id', (select c.id from public.conversations c where c.id = x.conversation_id))
                    order by x.created_at desc, x.id) filter (where x.rn <= $6), '[]'))
               from (select x.id, x.routine_id, r.name as routine_name, r.agent_id, x.conversation_id, x.created_at,
                            row_number() over (order by x.created_at desc, x.id) as rn
                       from public.routine_runs x
                       join public.routines r on r.id = x.routine_id
                      where x.workspace_id = w.id and x.status = 'sent'
                        and x.created_at > $3::timestamptz - make_interval(hours => $4) and x.created_at <= $3::timestamptz) x) as routine_runs,
            (select json_object_agg(planet, n) from (
               select i.planet, count(*)::int as n from public.workspace_insights i
                where i.workspace_id = w.id and i.status = 'new' and i.insight_date = ($3::timestamptz at time zone w.time_zone)::date
                group by i.planet) s) as new_insights,
            (select prefs from public.workspace_home_prefs h where h.workspace_id = w.id and h.user_id = $2) as prefs
       from public.workspaces w
       join public.workspace_members m on m.workspace_id = w.id and m.user_id = $2
      where w.id = $1`,
    [workspaceId, user.id, now.toISOString(), DONE_WINDOW_HOURS, PROPOSALS_SHOWN, DONE_ITEMS_SHOWN],
  );
  return row;
}

/**
 * A proposal as the card "Needs your OK" shows: an `approval` result, stamped by the card system like
 * any agent's approval card. `words` are the reader's (what, why and the channel's name, in their
 * language and the workspace's time zone). Its buttons carry what the decisions API needs: Approve
 * is bound to the hash of exactly what is shown.
 */
export function approvalResult(
  proposal: { id: string; argsHash: string; to: string | null; message: string | null; expiresAt: string | Date },
  /** No channel for a write on a connected account (its `what` names the account). */
  words: { what: string; why: string; channel?: string },
): ResultInput {
  return {
    type: 'approval',
    data: {
      title: words.what,
      why: words.why,
      // A card's text is never empty: an issue opened without a body has none to show.
      message: proposal.message || undefined,
      recipient: proposal.to || undefined,
      channel: words.channel,
      expiresAt: new Date(proposal.expiresAt).toISOString(),
    },
    actions: (defaultActions.approval ?? []).map((action) => ({
      ...action,
      data: action.verb === 'approve' ? { decisionId: proposal.id, argsHash: proposal.argsHash } : { decisionId: proposal.id },
    })),
  };
}
