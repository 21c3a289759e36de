import { ok, parseJson, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { resolveSchema, resolveThread } from '@/lib/chat';

type Params = { conversationId: string };

export const POST = route<Params>(async ({ req, params }) => {
  const { agentId } = await requireAgent(req);
  const { summary } = await parseJson(req, resolveSchema);
  return ok(await resolveThread({ kind: 'agent', agentId }, params.conversationId, summary));
}, 'programs');
