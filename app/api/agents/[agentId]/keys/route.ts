import { ok, parseJson, route } from '@/lib/api';
import { createAgentKey, createKeySchema, listAgentKeys } from '@/lib/agents';
import { requireUser } from '@/lib/auth';

type Params = { agentId: string };

export const GET = route<Params>(async ({ req, params }) => ok(await listAgentKeys(await requireUser(req), params.agentId)));

// The key is in this response only; it is stored hashed.
export const POST = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { label } = await parseJson(req, createKeySchema);
  return ok(await createAgentKey(user, params.agentId, label), 201);
});
