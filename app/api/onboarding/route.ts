import { ok, parseJson, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { getOnboarding, saveStep, saveStepSchema } from '@/lib/onboarding';

/** The caller's own onboarding: there is no id to name, so nobody can reach another person's. */
export const GET = route(async ({ req }) => {
  const user = await requireUser(req);
  return ok(await getOnboarding(user));
});

export const PUT = route(async ({ req }) => {
  const user = await requireUser(req);
  const input = await parseJson(req, saveStepSchema);
  return ok(await saveStep(user, input));
});
