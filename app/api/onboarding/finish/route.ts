import { ok, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { finishOnboarding } from '@/lib/onboarding';

/** Creates the workspace (201) or, on a retry, answers with the one already created (200). */
export const POST = route(async ({ req }) => {
  const user = await requireUser(req);
  const result = await finishOnboarding(user);
  return ok(result, result.created ? 201 : 200);
});
