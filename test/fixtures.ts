import { randomBytes } from 'node:crypto';
import { signUp } from '@/lib/auth';
import type { SessionUser } from '@/lib/db';
import { acceptInvitation, createInvitation } from '@/lib/workspaces';

/** A new account with a unique email; its personal workspace comes from the sign-up trigger. */
export async function createUser(name = 'user'): Promise<SessionUser> {
  const email = `${name}-${randomBytes(4).toString('hex')}@example.test`;
  const session = await signUp({ email, password: 'correct horse battery', displayName: name });
  return session.user;
}

/** `user` joins the workspace the way people do: `inviter` invites them and they accept the link. */
export async function joinWorkspace(inviter: SessionUser, workspaceId: string, user: SessionUser, role: 'admin' | 'member' = 'member'): Promise<void> {
  const { link } = await createInvitation(inviter, workspaceId, { email: user.email, role });
  await acceptInvitation(user, link.split('/invite/')[1]!);
}
