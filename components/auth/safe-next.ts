/**
 * Where to go after signing in. Only paths on this site are accepted, so a crafted link cannot
 * send someone elsewhere after they type their password.
 */
export function safeNext(value: string | string[] | undefined): string | null {
  const next = Array.isArray(value) ? value[0] : value;
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  return next;
}

/** A link to an auth page that keeps the way back. */
export function withNext(path: string, next: string | null, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  if (next) params.set('next', next);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
