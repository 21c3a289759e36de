import { ok, route } from '@/lib/api';
import { revokeAgentKey } from '@/lib/agents';
import { requireUser } from '@/lib/auth';

type Params = { agentId: string; keyId: string };

export const DELETE = route<Params>(async ({ req, params }) => ok(await revokeAgentKey(await requireUser(req), params.agentId, params.keyId)));
