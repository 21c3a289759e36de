import { ok, parseJson, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { claimDeliveries, claimSchema } from '@/lib/chat';

export const POST = route(async ({ req }) => {
  const { agentId } = await requireAgent(req);
  const { connectionId, limit, leaseSeconds } = await parseJson(req, claimSchema);
  return ok(await claimDeliveries(agentId, connectionId, { limit, leaseSeconds }));
});
