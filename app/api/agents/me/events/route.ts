import { route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { streamAgentEvents } from '@/lib/chat';

// Server-Sent Events for an agent connection: `ready`, then `deliveries` whenever work is queued.
// On either, the connection claims. The stream ends when the session token expires or its key is revoked.
export const GET = route(async ({ req }) => {
  const session = await requireAgent(req);
  return streamAgentEvents(session, req.signal);
}, 'programs');
