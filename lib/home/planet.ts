import { isUuid, notFound, rethrowAsApiError } from '@/lib/api';
import { decisionJoin, DECISION_VIEW, readAutonomy, type AutonomyLevel, type DecisionView, type Role } from '@/lib/autonomy';
import { withUser, type SessionUser } from '@/lib/db';
import { hasData, INSIGHT_VIEW, type InsightView } from '@/lib/insights';
import { computeAllPlanets, computePlanetMetrics, type Planet, type PlanetMetrics } from '@/lib/planets';
import { summarizePlanet, type PlanetSummary } from './brief';

interface Membership {
  role: Role;
  time_zone: string;
  sector: string;
}

async function membership(tx: Parameters<Parameters<typeof withUser>[1]>[0], user: SessionUser, workspaceId: string) {
  const [row] = await tx.query<Membership>(
    `select m.role, w.time_zone, w.sector from public.workspaces w join public.workspace_members m on m.workspace_id = w.id and m.user_id = $2
      where w.id = $1`,
    [workspaceId, user.id],
  );
  if (!row) throw notFound('workspace');
  return row;
}

/** The six planets' health, trend and autonomy, for the Planets page. */
export async function planetSummaries(user: SessionUser, workspaceId: string, now = new Date()): Promise<PlanetSummary[]> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  return withUser(user, async (tx) => {
    const ws = await membership(tx, user, workspaceId);
    const { planets } = await computeAllPlanets(tx, workspaceId, { now, timeZone: ws.time_zone });
    const autonomy = await readAutonomy(tx, workspaceId);
    return planets.map((p) => summarizePlanet(p, autonomy, 0));
  }).catch(rethrowAsApiError);
}

export interface PlanetDetail {
  planet: Planet;
  role: Role;
  sector: string;
  timeZone: string;
  metrics: PlanetMetrics;
  hasData: boolean;
  autonomy: AutonomyLevel;
  paused: boolean;
  insights: InsightView[];
  decisions: DecisionView[];
}

/** One planet: its metrics against the benchmark, its last two weeks of insights and actions, its autonomy. */
export async function planetDetail(user: SessionUser, workspaceId: string, planet: Planet, now = new Date()): Promise<PlanetDetail> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  return withUser(user, async (tx) => {
    const ws = await membership(tx, user, workspaceId);
    const metrics = await computePlanetMetrics(tx, workspaceId, planet, { now, timeZone: ws.time_zone });
    const autonomy = await readAutonomy(tx, workspaceId);
    const level = autonomy.planets.find((a) => a.planet === planet)!;
    const insights = await tx.query<InsightView>(
      `select ${INSIGHT_VIEW} from public.workspace_insights i
        where i.workspace_id = $1 and i.planet = $2 and i.status <> 'dismissed'
          and i.insight_date >= ($3::timestamptz at time zone $4)::date - 14
        order by i.insight_date desc, case i.severity when 'act' then 0 when 'watch' then 1 else 2 end, i.kind limit 30`,
      [workspaceId, planet, now.toISOString(), ws.time_zone],
    );
    const decisions = await tx.query<DecisionView>(
      `select ${DECISION_VIEW} from public.agent_decisions d ${decisionJoin()} where d.workspace_id = $1 and d.planet = $2 order by d.created_at desc, d.id limit 10`,
      [workspaceId, planet],
    );
    return {
      planet,
      role: ws.role,
      sector: ws.sector,
      timeZone: ws.time_zone,
      metrics,
      hasData: hasData(metrics),
      autonomy: level.autonomy,
      paused: level.paused || autonomy.paused,
      insights,
      decisions,
    };
  }).catch(rethrowAsApiError);
}
