import { ok, parseJson, route } from '@/lib/api';
import { applyCookies, clientIp, sessionCookies, signIn, signInSchema } from '@/lib/auth';

export const POST = route(async ({ req }) => {
  const input = await parseJson(req, signInSchema);
  const session = await signIn(input, clientIp(req));
  return applyCookies(ok({ user: session.user }), sessionCookies(session), req);
});
