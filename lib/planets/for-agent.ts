import { notFound } from '@/lib/api';
import { asService } from '@/lib/db';
import { computePlanetMetrics } from './metrics';
import type { Planet, PlanetMetrics } from './types';

/**
 * One planet's metrics for an agent that appears in the workspace (`workspace_agents`), as the daily
 * analysis reads them: aggregates only, nothing that names a customer. A workspace the agent is not in
 * does not exist for it. Health and its reasons are the ones the Home and the planet page show.
 */
export async function planetMetricsForAgent(agentId: string, workspaceId: string, planet: Planet, now = new Date()): Promise<PlanetMetrics> {
  return asService(async (tx) => {
    const [workspace] = await tx.query<{ time_zone: string }>(
      `select w.time_zone from public.workspaces w
       join public.workspace_agents wa on wa.workspace_id = w.id and wa.agent_id = $2
       where w.id = $1`,
      [workspaceId, agentId],
    );
    if (!workspace) throw notFound('theWorkspace');
    return computePlanetMetrics(tx, workspaceId, planet, { now, timeZone: workspace.time_zone });
  });
}
