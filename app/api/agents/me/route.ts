import { ok, route } from '@/lib/api';
import { getAgentSelf, requireAgent } from '@/lib/agents';

export const GET = route(async ({ req }) => ok(await getAgentSelf((await requireAgent(req)).agentId)), 'programs');
