import { managersOnly, notFound, type ManagersOnly } from '@/lib/api';
import type { SessionUser, Tx } from '@/lib/db';
import type { Role } from '@/lib/workspaces';

export type { Role };

/** The caller's role in the workspace (under RLS: a stranger sees no membership and gets 404). */
export async function roleIn(tx: Tx, user: SessionUser, workspaceId: string): Promise<Role> {
  const [row] = await tx.query<{ role: Role }>(`select role from public.workspace_members where workspace_id = $1 and user_id = $2`, [
    workspaceId,
    user.id,
  ]);
  if (!row) throw notFound('workspace');
  return row.role;
}

/** Approving, ignoring, undoing and changing autonomy act for the business: the owner and admins only. */
export async function requireManager(tx: Tx, user: SessionUser, workspaceId: string, what: ManagersOnly): Promise<Role> {
  const role = await roleIn(tx, user, workspaceId);
  if (role === 'member') throw managersOnly(what);
  return role;
}
