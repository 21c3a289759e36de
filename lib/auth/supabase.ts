import 'server-only';
import { createServerClient } from '@supabase/ssr';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { config } from '@/lib/config';
import type { SessionUser } from '@/lib/db';

// Supabase mode: sessions come from Supabase Auth through @supabase/ssr. `getClaims()` verifies the
// JWT (never trust `getSession()` for authorization).

function settings() {
  const cfg = config();
  if (!cfg.NEXT_PUBLIC_SUPABASE_URL || !cfg.NEXT_PUBLIC_SUPABASE_ANON_KEY) {
    throw new Error('Supabase mode needs NEXT_PUBLIC_SUPABASE_URL and NEXT_PUBLIC_SUPABASE_ANON_KEY');
  }
  return { url: cfg.NEXT_PUBLIC_SUPABASE_URL, key: cfg.NEXT_PUBLIC_SUPABASE_ANON_KEY };
}

function parseCookies(header: string | null) {
  return (header ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const index = part.indexOf('=');
      return { name: part.slice(0, index), value: decodeURIComponent(part.slice(index + 1)) };
    });
}

/**
 * The person of a verified access token (the session's when `token` is undefined), or null. getClaims()
 * of supabase-js 2.105 throws a plain Error for an expired token instead of answering with an error
 * (supabase/supabase-js#2394, fixed in later releases), which would be a 500: expiry is checked here.
 */
async function verifiedUser(client: SupabaseClient, token?: string): Promise<SessionUser | null> {
  const { data, error } = await client.auth.getClaims(token, { allowExpired: true });
  if (error || !data?.claims?.sub || !(data.claims.exp * 1000 > Date.now())) return null;
  return { id: data.claims.sub, email: String(data.claims.email ?? '') };
}

export async function supabaseUserFromCookies(cookieHeader: string | null): Promise<SessionUser | null> {
  const { url, key } = settings();
  const supabase = createServerClient(url, key, {
    cookies: { getAll: () => parseCookies(cookieHeader), setAll: () => {} },
  });
  return verifiedUser(supabase);
}

export async function supabaseUserFromToken(token: string): Promise<SessionUser | null> {
  const { url, key } = settings();
  return verifiedUser(createClient(url, key, { auth: { persistSession: false } }), token);
}

/** Refreshes the Supabase session cookies in proxy.ts, the way @supabase/ssr expects. */
export async function refreshSupabaseSession(
  cookieHeader: string | null,
  setCookie: (name: string, value: string, options: Record<string, unknown>) => void,
): Promise<void> {
  const { url, key } = settings();
  const supabase = createServerClient(url, key, {
    cookies: {
      getAll: () => parseCookies(cookieHeader),
      setAll: (cookies) => cookies.forEach(({ name, value, options }) => setCookie(name, value, options)),
    },
  });
  await supabase.auth.getClaims();
}
