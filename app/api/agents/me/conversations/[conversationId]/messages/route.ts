import { ok, parseJson, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { agentReplySchema, sendMessage } from '@/lib/chat';

type Params = { conversationId: string };

// An agent's message goes through the same send path as a person's.
export const POST = route<Params>(async ({ req, params }) => {
  const { agentId } = await requireAgent(req);
  const { body, replyTo, done } = await parseJson(req, agentReplySchema);
  return ok(await sendMessage({ kind: 'agent', agentId }, params.conversationId, body, { replyTo, done }), 201);
});
