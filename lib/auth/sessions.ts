import 'server-only';
import { randomUUID } from 'node:crypto';
import { asService, type SessionUser, type Tx } from '@/lib/db';
import { newToken, sha256 } from './crypto';
import { signAccessToken } from './jwt';

export const REFRESH_TOKEN_DAYS = 30;

export interface SessionTokens {
  user: SessionUser;
  accessToken: string;
  refreshToken: string;
}

export async function issueSession(user: SessionUser, familyId: string = randomUUID(), tx?: Tx): Promise<SessionTokens> {
  const refreshToken = newToken();
  const insert = (t: Tx) =>
    t.query(
      `insert into private.refresh_tokens (token_hash, user_id, family_id, expires_at)
       values ($1, $2, $3, now() + make_interval(days => $4))`,
      [sha256(refreshToken), user.id, familyId, REFRESH_TOKEN_DAYS],
    );
  if (tx) await insert(tx);
  else await asService(insert);
  return { user, refreshToken, accessToken: await signAccessToken(user) };
}

/**
 * Rotates a refresh token. Presenting one that was already rotated means it leaked: the whole
 * family is revoked and the person has to sign in again.
 */
export async function refreshSession(refreshToken: string): Promise<SessionTokens | null> {
  return asService(async (tx) => {
    const [row] = await tx.query<{ user_id: string; family_id: string; revoked_at: Date | null; expired: boolean; email: string }>(
      `select t.user_id, t.family_id, t.revoked_at, t.expires_at <= now() as expired, u.email
         from private.refresh_tokens t join auth.users u on u.id = t.user_id
        where t.token_hash = $1 for update of t`,
      [sha256(refreshToken)],
    );
    if (!row || row.expired) return null;
    if (row.revoked_at) {
      await tx.query('update private.refresh_tokens set revoked_at = coalesce(revoked_at, now()) where family_id = $1', [row.family_id]);
      return null;
    }
    await tx.query('update private.refresh_tokens set revoked_at = now() where token_hash = $1', [sha256(refreshToken)]);
    return issueSession({ id: row.user_id, email: row.email }, row.family_id, tx);
  });
}

export async function signOut(refreshToken: string | undefined): Promise<void> {
  if (!refreshToken) return;
  await asService((tx) =>
    tx.query(
      `update private.refresh_tokens set revoked_at = coalesce(revoked_at, now())
        where family_id = (select family_id from private.refresh_tokens where token_hash = $1)`,
      [sha256(refreshToken)],
    ),
  );
}

