import { ok, parseJson, route } from '@/lib/api';
import { createAgentKeyIn, createKeySchema, listAgentKeysIn } from '@/lib/agents';
import { requireUser } from '@/lib/auth';

type Params = { workspaceId: string; agentId: string };

export const GET = route<Params>(async ({ req, params }) => ok(await listAgentKeysIn(await requireUser(req), params.workspaceId, params.agentId)));

// The key is in this response only; it is stored hashed.
export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const input = await parseJson(req, createKeySchema);
  return ok(await createAgentKeyIn(user, params.workspaceId, params.agentId, input), 201);
});
