import { ok, route, unauthorized } from '@/lib/api';
import { exchangeAgentCredential } from '@/lib/agents';

// The only endpoint that takes an agent key (or a hosted runner's host token): `X-Agent-Key`.
export const POST = route(async ({ req }) => {
  const secret = req.headers.get('x-agent-key')?.trim();
  if (!secret) throw unauthorized('Send the agent key in the X-Agent-Key header.');
  return ok(await exchangeAgentCredential(secret));
});
