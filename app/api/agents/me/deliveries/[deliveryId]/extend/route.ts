import { ok, parseJson, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { extendLease, extendLeaseSchema } from '@/lib/chat';

type Params = { deliveryId: string };

// A long turn keeps its delivery: only the connection holding the lease may move it (409 otherwise).
export const POST = route<Params>(async ({ req, params }) => {
  const { agentId } = await requireAgent(req);
  const { connectionId, leaseSeconds } = await parseJson(req, extendLeaseSchema);
  return ok(await extendLease(agentId, connectionId, params.deliveryId, leaseSeconds));
}, 'programs');
