import type { SessionUser, Tx } from '@/lib/db';
import { createInvitation, createWorkspace, type Workspace } from '@/lib/workspaces';
import { createUser, joinWorkspace } from './fixtures';

export interface RlsWorld {
  a: Workspace;
  b: Workspace;
  ownerA: SessionUser;
  adminA: SessionUser;
  memberA: SessionUser;
  ownerB: SessionUser;
  stranger: SessionUser;
}

/** Two team workspaces with people in every role. */
export async function createRlsWorld(): Promise<RlsWorld> {
  const [ownerA, adminA, memberA, ownerB, stranger] = await Promise.all(
    ['owner-a', 'admin-a', 'member-a', 'owner-b', 'stranger'].map((n) => createUser(n)),
  );
  const a = await createWorkspace(ownerA!, { name: 'Workspace A' });
  const b = await createWorkspace(ownerB!, { name: 'Workspace B' });
  await joinWorkspace(ownerA!, a.id, adminA!, 'admin');
  await joinWorkspace(ownerA!, a.id, memberA!);
  // A pending invitation in each workspace, so that table has rows on both sides.
  await createInvitation(ownerA!, a.id, { email: 'pending-a@example.test', role: 'member' });
  await createInvitation(ownerB!, b.id, { email: 'pending-b@example.test', role: 'member' });
  return { a, b, ownerA: ownerA!, adminA: adminA!, memberA: memberA!, ownerB: ownerB!, stranger: stranger! };
}

/**
 * Rows for one workspace-scoped capability, written as the service role. Each capability that adds
 * tables adds a file to test/rls-seeders/ whose default export is one of these: the RLS suite fails on
 * a table it finds empty, so no table is proven vacuously.
 */
export type WorkspaceDataSeeder = (tx: Tx, world: RlsWorld, workspace: Workspace) => Promise<void>;
