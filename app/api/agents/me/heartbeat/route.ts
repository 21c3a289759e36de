import { ok, parseJson, route } from '@/lib/api';
import { recordHeartbeat, requireAgent } from '@/lib/agents';
import { heartbeatSchema } from '@/lib/chat';

export const POST = route(async ({ req }) => {
  const { agentId } = await requireAgent(req);
  const { connectionId } = await parseJson(req, heartbeatSchema);
  return ok(await recordHeartbeat(agentId, connectionId));
}, 'programs');
