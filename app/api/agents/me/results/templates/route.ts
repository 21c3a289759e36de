import { ok, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { listTemplates } from '@/lib/cards';

// The template library, for an agent choosing a layout by name.
export const GET = route(async ({ req }) => {
  await requireAgent(req);
  return ok(await listTemplates());
}, 'programs');
