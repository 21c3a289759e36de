import { ok, parseJson, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { delegate, delegateSchema } from '@/lib/chat';

type Params = { conversationId: string };

// From a DM: hands a task to other agents in a parallel conversation of its own.
export const POST = route<Params>(async ({ req, params }) => {
  const { agentId } = await requireAgent(req);
  const input = await parseJson(req, delegateSchema);
  return ok(await delegate({ kind: 'agent', agentId }, params.conversationId, input), 201);
}, 'programs');
