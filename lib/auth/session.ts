import 'server-only';
import { unauthorized } from '@/lib/api';
import { config } from '@/lib/config';
import type { SessionUser } from '@/lib/db';
import { ACCESS_COOKIE, readCookie } from './cookies';
import { verifyAccessToken } from './jwt';

/**
 * The signed-in person of a route handler request: the session cookie (or a Bearer token for API
 * clients), verified server-side. Embedded mode verifies our own JWT; Supabase mode asks Supabase
 * Auth. Both give the same `sub`, which becomes `auth.uid()` under RLS.
 */
export async function getRequestUser(req: Request): Promise<SessionUser | null> {
  const bearer = req.headers.get('authorization')?.match(/^Bearer (.+)$/i)?.[1];
  if (config().supabaseAuth) {
    const { supabaseUserFromCookies, supabaseUserFromToken } = await import('./supabase');
    return bearer ? supabaseUserFromToken(bearer) : supabaseUserFromCookies(req.headers.get('cookie'));
  }
  const token = bearer ?? readCookie(req.headers.get('cookie'), ACCESS_COOKIE);
  return token ? verifyAccessToken(token) : null;
}

export async function requireUser(req: Request): Promise<SessionUser> {
  const user = await getRequestUser(req);
  if (!user) throw unauthorized();
  return user;
}

/** Supabase mode's session refresh, for the proxy: supabase-js loads only in that mode, as above. */
export async function refreshSupabaseSession(...args: Parameters<typeof import('./supabase').refreshSupabaseSession>): Promise<void> {
  const { refreshSupabaseSession } = await import('./supabase');
  return refreshSupabaseSession(...args);
}

/** The signed-in person in a server component or server action. */
export async function getSessionUser(): Promise<SessionUser | null> {
  const { cookies, headers } = await import('next/headers');
  const [cookieStore, headerStore] = await Promise.all([cookies(), headers()]);
  if (config().supabaseAuth) {
    const { supabaseUserFromCookies } = await import('./supabase');
    return supabaseUserFromCookies(headerStore.get('cookie'));
  }
  const token = cookieStore.get(ACCESS_COOKIE)?.value;
  return token ? verifyAccessToken(token) : null;
}
