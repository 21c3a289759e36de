import { ACCESS_TOKEN_SECONDS } from './jwt';
import { REFRESH_TOKEN_DAYS, type SessionTokens } from './sessions';

export const ACCESS_COOKIE = 'mv_access';
export const REFRESH_COOKIE = 'mv_refresh';

export interface CookieToSet {
  name: string;
  value: string;
  maxAge: number;
}

/** The refresh cookie is only sent to the auth routes and the proxy, never to pages' scripts. */
export function sessionCookies(tokens: SessionTokens): CookieToSet[] {
  return [
    { name: ACCESS_COOKIE, value: tokens.accessToken, maxAge: ACCESS_TOKEN_SECONDS },
    { name: REFRESH_COOKIE, value: tokens.refreshToken, maxAge: REFRESH_TOKEN_DAYS * 24 * 3600 },
  ];
}

export const clearedSessionCookies = (): CookieToSet[] => [
  { name: ACCESS_COOKIE, value: '', maxAge: 0 },
  { name: REFRESH_COOKIE, value: '', maxAge: 0 },
];

export function serializeCookie(cookie: CookieToSet, secure: boolean): string {
  return [
    `${cookie.name}=${cookie.value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${cookie.maxAge}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

export const isSecureRequest = (req: Request) =>
  new URL(req.url).protocol === 'https:' || req.headers.get('x-forwarded-proto') === 'https';

export function applyCookies(response: Response, cookies: CookieToSet[], req: Request): Response {
  const secure = isSecureRequest(req);
  for (const cookie of cookies) response.headers.append('set-cookie', serializeCookie(cookie, secure));
  return response;
}

/** The client address for per-IP limits: the first hop a proxy recorded, else the socket's. */
export function clientIp(req: Request): string {
  return req.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || req.headers.get('x-real-ip') || 'local';
}
