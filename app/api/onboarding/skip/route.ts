import { ok, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { skipOnboarding } from '@/lib/onboarding';

export const POST = route(async ({ req }) => {
  const user = await requireUser(req);
  return ok(await skipOnboarding(user));
});
