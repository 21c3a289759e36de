import { randomBytes } from 'node:crypto';
import { signUp } from '@/lib/auth';
import type { SessionUser } from '@/lib/db';

/** A new account with a unique email; its personal workspace comes from the sign-up trigger. */
export async function createUser(name = 'user'): Promise<SessionUser> {
  const email = `${name}-${randomBytes(4).toString('hex')}@example.test`;
  const session = await signUp({ email, password: 'correct horse battery', displayName: name });
  return session.user;
}
