import { z } from 'zod';
import { okRaw, parseParams, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { PLANETS, planetMetricsForAgent } from '@/lib/planets';

type Params = { workspaceId: string; planet: string };
const paramsSchema = z.object({ workspaceId: z.uuid(), planet: z.enum(PLANETS) });

// An agent reads a planet's metrics, health and reasons, to answer questions about the business.
export const GET = route<Params>(async ({ req, params }) => {
  const { agentId } = await requireAgent(req);
  const { workspaceId, planet } = parseParams(params, paramsSchema);
  return okRaw(await planetMetricsForAgent(agentId, workspaceId, planet));
}, 'programs');
