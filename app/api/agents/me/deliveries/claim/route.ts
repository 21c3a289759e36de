import { ok, parseJson, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { claimDeliveries, claimSchema } from '@/lib/chat';

export const POST = route(async ({ req }) => {
  const { agentId, workerId } = await requireAgent(req);
  const { connectionId, limit, leaseSeconds } = await parseJson(req, claimSchema);
  // A hosted agent's session names the process running its bridge: its leases go with that process.
  return ok(await claimDeliveries(agentId, connectionId, { limit, leaseSeconds, workerId }));
}, 'programs');
