import { ok, parseJson, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { publishResults, publishResultsSchema } from '@/lib/cards';

// An agent publishes structured results: stamped into cards, sent as one message.
export const POST = route(async ({ req }) => {
  const { agentId } = await requireAgent(req);
  return ok(await publishResults(agentId, await parseJson(req, publishResultsSchema)), 201);
}, 'programs');
