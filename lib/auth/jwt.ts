import 'server-only';
import { jwtVerify, SignJWT } from 'jose';
import { config } from '@/lib/config';
import { asService, type SessionUser } from '@/lib/db';
import { newToken } from './crypto';

export const ACCESS_TOKEN_SECONDS = 15 * 60;

let secretPromise: Promise<Uint8Array> | undefined;

/** AUTH_JWT_SECRET when set; otherwise one generated on first use and kept in the database. */
function secret(): Promise<Uint8Array> {
  secretPromise ??= (async () => {
    const configured = config().AUTH_JWT_SECRET;
    if (configured) return new TextEncoder().encode(configured);
    const value = await asService(async (tx) => {
      await tx.query(`insert into private.instance_settings (key, value) values ('jwt_secret', $1) on conflict (key) do nothing`, [newToken(48)]);
      const [row] = await tx.query<{ value: string }>(`select value from private.instance_settings where key = 'jwt_secret'`);
      return row!.value;
    });
    return new TextEncoder().encode(value);
  })().catch((error) => {
    secretPromise = undefined;
    throw error;
  });
  return secretPromise;
}

/** A short-lived access token with Supabase-shaped claims, so `auth.uid()` reads the same `sub`. */
export async function signAccessToken(user: SessionUser): Promise<string> {
  return new SignJWT({ email: user.email, role: 'authenticated' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setAudience('authenticated')
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
    .sign(await secret());
}

export async function verifyAccessToken(token: string): Promise<SessionUser | null> {
  try {
    const { payload } = await jwtVerify(token, await secret(), { algorithms: ['HS256'], audience: 'authenticated' });
    if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') return null;
    return { id: payload.sub, email: payload.email };
  } catch {
    return null;
  }
}
