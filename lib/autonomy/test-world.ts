import { acceptInvitation, createInvitation, createWorkspace, type Workspace } from '@/lib/workspaces';
import { asService, type SessionUser } from '@/lib/db';
import { DEMO_SEED, generateDemoData, insertPlanetData } from '@/lib/planets';
import { createUser } from '@/test/fixtures';

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
  for (const [user, role] of [
    [admin!, 'admin'],
    [member!, 'member'],
  ] as const) {
    const { link } = await createInvitation(owner!, workspace.id, { email: user.email, role });
    await acceptInvitation(user, link.split('/invite/')[1]!);
  }
  await asService((tx) =>
    insertPlanetData(tx, { workspaceId: workspace.id, ownerId: owner!.id, timeZone: 'Europe/Rome' }, generateDemoData(DEMO_SEED, today)),
  );
  return { workspace, owner: owner!, admin: admin!, member: member! };
}
