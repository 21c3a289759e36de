import { NextResponse, type NextRequest } from 'next/server';
import { config as appConfig } from '@/lib/config';
import { ACCESS_COOKIE, REFRESH_COOKIE, refreshSession, refreshSupabaseSession, sessionCookies, verifyAccessToken } from '@/lib/auth';

/**
 * Keeps sessions alive: when the short-lived access token is missing or expired and a refresh token
 * is present, rotate it here, hand the new access token to this very request (so server components
 * and route handlers see it) and set both cookies on the response. Authorization itself happens in
 * the pages and route handlers, which verify the token again.
 */
export async function proxy(request: NextRequest) {
  if (appConfig().supabaseAuth) {
    const written: { name: string; value: string; options: Record<string, unknown> }[] = [];
    await refreshSupabaseSession(request.headers.get('cookie'), (name, value, options) => written.push({ name, value, options }));
    // NextResponse.next copies the request's headers when it is made: made after the refresh, it hands
    // the refreshed session to this very request, as in the embedded branch below.
    for (const { name, value } of written) request.cookies.set(name, value);
    const response = NextResponse.next({ request: { headers: request.headers } });
    for (const { name, value, options } of written) response.cookies.set(name, value, options);
    return response;
  }

  const access = request.cookies.get(ACCESS_COOKIE)?.value;
  const refresh = request.cookies.get(REFRESH_COOKIE)?.value;
  if (!refresh || (access && (await verifyAccessToken(access)))) return NextResponse.next();

  const session = await refreshSession(refresh);
  const secure = request.nextUrl.protocol === 'https:';
  if (!session) {
    const response = NextResponse.next();
    response.cookies.delete(ACCESS_COOKIE);
    response.cookies.delete(REFRESH_COOKIE);
    return response;
  }
  request.cookies.set(ACCESS_COOKIE, session.accessToken);
  const response = NextResponse.next({ request: { headers: request.headers } });
  for (const cookie of sessionCookies(session)) {
    response.cookies.set(cookie.name, cookie.value, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: cookie.maxAge, secure });
  }
  return response;
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico|icon.svg|robots.txt|api/inngest|api/health).*)'],
};
