import { ok, route, unauthorized } from '@/lib/api';
import { exchangeAgentCredential } from '@/lib/agents';

// The only endpoint that takes an agent key (or a hosted runner's host token): `X-Agent-Key`.
export const POST = route(async ({ req }) => {
  const secret = req.headers.get('x-agent-key')?.trim();
  if (!secret) throw unauthorized('api.agents.sendKey');
  return ok(await exchangeAgentCredential(secret));
}, 'programs');
