import { ok, parseJson, parseQuery, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { agentConversationView } from '@/lib/bridge';
import { agentReplySchema, historyQuerySchema } from '@/lib/chat';
import { sendAgentMessage } from '@/lib/inbound';

type Params = { conversationId: string };

// What the agent reads before answering: the conversation, its members, the workspace's agents and
// a page of history (the agent must be a member).
export const GET = route<Params>(async ({ req, params }) => {
  const { agentId } = await requireAgent(req);
  const query = parseQuery(req, historyQuerySchema);
  return ok(await agentConversationView(agentId, params.conversationId, query));
}, 'programs');

// An agent's message goes through the same send path as a person's; in a customer conversation it is
// also its answer to the customer, which autonomy proposes, sends or refuses (lib/inbound).
export const POST = route<Params>(async ({ req, params }) => {
  const { agentId } = await requireAgent(req);
  const { body, replyTo, done } = await parseJson(req, agentReplySchema);
  return ok(await sendAgentMessage(agentId, params.conversationId, body, { replyTo, done }), 201);
}, 'programs');
