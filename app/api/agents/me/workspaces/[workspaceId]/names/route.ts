import { z } from 'zod';
import { ok, parseParams, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { knownNamesForAgent } from '@/lib/policy';

type Params = { workspaceId: string };
const paramsSchema = z.object({ workspaceId: z.uuid() });

// A bridge's runs alias these names before anything reaches a model: a bridge on a laptop has no app database.
export const GET = route<Params>(async ({ req, params }) => {
  const { agentId } = await requireAgent(req);
  const { workspaceId } = parseParams(params, paramsSchema);
  return ok({ names: await knownNamesForAgent(agentId, workspaceId) });
}, 'programs');
