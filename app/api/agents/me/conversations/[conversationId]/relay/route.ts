import { ok, parseJson, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { relayResult, relaySchema } from '@/lib/chat';

type Params = { conversationId: string };

// From a delegation: brings the final result back to the DM it came from, once.
export const POST = route<Params>(async ({ req, params }) => {
  const { agentId } = await requireAgent(req);
  const input = await parseJson(req, relaySchema);
  return ok(await relayResult({ kind: 'agent', agentId }, params.conversationId, input), 201);
}, 'programs');
