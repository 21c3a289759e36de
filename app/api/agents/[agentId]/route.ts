import { ok, parseJson, route } from '@/lib/api';
import { getOwnedAgent, updateAgent, updateAgentSchema } from '@/lib/agents';
import { requireUser } from '@/lib/auth';

type Params = { agentId: string };

export const GET = route<Params>(async ({ req, params }) => ok(await getOwnedAgent(await requireUser(req), params.agentId)));

export const PATCH = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const input = await parseJson(req, updateAgentSchema);
  return ok(await updateAgent(user, params.agentId, input));
});
