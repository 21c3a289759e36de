import { ok, parseJson, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { completeDelivery, completeSchema } from '@/lib/chat';

type Params = { deliveryId: string };

export const POST = route<Params>(async ({ req, params }) => {
  const { agentId } = await requireAgent(req);
  const { connectionId, outcome, done } = await parseJson(req, completeSchema);
  await completeDelivery(agentId, connectionId, params.deliveryId, { outcome, done });
  return ok({ id: params.deliveryId, status: 'done', outcome });
}, 'programs');
