import { ok, parseJson, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { outcomeSchema, reportOutcome } from '@/lib/cards';

type Params = { eventId: string };

// The agent reports what came of a click it was handed (payload.cardEvent.eventId); the card shows it.
export const POST = route<Params>(async ({ req, params }) => {
  const { agentId } = await requireAgent(req);
  return ok(await reportOutcome(agentId, params.eventId, await parseJson(req, outcomeSchema)));
}, 'programs');
