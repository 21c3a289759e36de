import { ok, parseJson, route } from '@/lib/api';
import { createAgentIn, createAgentSchema, listAgentsIn } from '@/lib/agents';
import { requireUser } from '@/lib/auth';

type Params = { workspaceId: string };

/** Settings → Agents: every agent that appears in the workspace (members too), with what the caller may do. */
export const GET = route<Params>(async ({ req, params }) => ok(await listAgentsIn(await requireUser(req), params.workspaceId)));

/** A new agent of the caller's (owners and admins: 403 for a member). */
export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const input = await parseJson(req, createAgentSchema);
  return ok(await createAgentIn(user, params.workspaceId, input), 201);
});
