import { ok, parseJson, route } from '@/lib/api';
import { applyCookies, sessionCookies, signUp, signUpSchema } from '@/lib/auth';

export const POST = route(async ({ req }) => {
  const input = await parseJson(req, signUpSchema);
  const session = await signUp(input);
  return applyCookies(ok({ user: session.user }, 201), sessionCookies(session), req);
});
