import { ok, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { listTemplates } from '@/lib/cards';

// The template library (platform-wide, read-only over the API).
export const GET = route(async ({ req }) => {
  await requireUser(req);
  return ok(await listTemplates());
});
