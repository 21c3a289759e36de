import { ok, parseJson, route } from '@/lib/api';
import { deleteAgentIn, getAgentIn, updateAgentIn, updateAgentSchema } from '@/lib/agents';
import { requireUser } from '@/lib/auth';

type Params = { workspaceId: string; agentId: string };

export const GET = route<Params>(async ({ req, params }) => ok(await getAgentIn(await requireUser(req), params.workspaceId, params.agentId)));

export const PATCH = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const input = await parseJson(req, updateAgentSchema);
  return ok(await updateAgentIn(user, params.workspaceId, params.agentId, input));
});

/** Deletes the agent everywhere it appears. */
export const DELETE = route<Params>(async ({ req, params }) => ok(await deleteAgentIn(await requireUser(req), params.workspaceId, params.agentId)));
