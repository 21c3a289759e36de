import { ok, route } from '@/lib/api';
import { applyCookies, clearedSessionCookies, readCookie, REFRESH_COOKIE, signOut } from '@/lib/auth';

export const POST = route(async ({ req }) => {
  await signOut(readCookie(req.headers.get('cookie'), REFRESH_COOKIE));
  return applyCookies(ok({ signedOut: true }), clearedSessionCookies(), req);
});
