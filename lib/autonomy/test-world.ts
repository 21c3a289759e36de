import { createWorkspace, type Workspace } from '@/lib/workspaces';
import { asService, type SessionUser } from '@/lib/db';
import { DEMO_SEED, generateDemoData, insertPlanetData } from '@/lib/planets';
import { createUser, joinWorkspace } from '@/test/fixtures';

export interface Salon {
  workspace: Workspace;
  owner: SessionUser;
  admin: SessionUser;
  member: SessionUser;
}

/**
 * Tests only: a hair salon in Rome with an owner, an admin and a member, and Studio Aurora's demo data
 * anchored on `today` (local date; the data's "now" is today 07:00).
 */
export async function createSalon(today = '2026-11-30', name = 'Studio Aurora'): Promise<Salon> {
  const [owner, admin, member] = await Promise.all(['owner', 'admin', 'member'].map((n) => createUser(n)));
  const workspace = await createWorkspace(owner!, { name, timeZone: 'Europe/Rome', locale: 'it', sector: 'hair_salon' });
  await joinWorkspace(owner!, workspace.id, admin!, 'admin');
  await joinWorkspace(owner!, workspace.id, member!);
  await asService((tx) =>
    insertPlanetData(tx, { workspaceId: workspace.id, ownerId: owner!.id, timeZone: 'Europe/Rome' }, generateDemoData(DEMO_SEED, today)),
  );
  return { workspace, owner: owner!, admin: admin!, member: member! };
}
