import { ok, route } from '@/lib/api';
import { revokeAgentKeyIn } from '@/lib/agents';
import { requireUser } from '@/lib/auth';

type Params = { workspaceId: string; agentId: string; keyId: string };

/** Revokes the key: the exchange refuses it at once, and so does every endpoint for the sessions made from it. */
export const DELETE = route<Params>(async ({ req, params }) =>
  ok(await revokeAgentKeyIn(await requireUser(req), params.workspaceId, params.agentId, params.keyId)),
);
