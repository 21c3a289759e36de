import { describe, expect, it } from 'vitest';
import { readMailbox } from '@/lib/auth';
import { asService, withUser } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { createUser } from '@/test/fixtures';
import {
  acceptInvitation,
  changeRole,
  createInvitation,
  createWorkspace,
  deleteWorkspace,
  getWorkspace,
  listMembers,
  listWorkspaces,
  removeMember,
  updateWorkspace,
} from '.';

setupTestDatabase();

const tokenOf = (link: string) => link.split('/invite/')[1]!;

async function teamWithMembers() {
  const owner = await createUser('owner');
  const admin = await createUser('admin');
  const member = await createUser('member');
  const team = await createWorkspace(owner, { name: 'Studio Test', timeZone: 'Europe/Rome', locale: 'it', sector: 'hair_salon' });
  await acceptInvitation(admin, tokenOf((await createInvitation(owner, team.id, { email: admin.email, role: 'admin' })).link));
  await acceptInvitation(member, tokenOf((await createInvitation(owner, team.id, { email: member.email, role: 'member' })).link));
  return { owner, admin, member, team };
}

describe('workspaces', () => {
  it('creates a team workspace owned by its creator, with its settings', async () => {
    const owner = await createUser('creator');
    const team = await createWorkspace(owner, { name: 'Studio Aurora', timeZone: 'Europe/Rome', locale: 'it', sector: 'hair_salon' });
    expect(team).toMatchObject({ name: 'Studio Aurora', isPersonal: false, role: 'owner', plan: 'free', timeZone: 'Europe/Rome', locale: 'it' });
    expect((await listWorkspaces(owner)).map((w) => w.name)).toEqual(['Personal', 'Studio Aurora']);
  });

  it('invites by email: the invitee accepts once and sees the workspace; a stranger cannot open it', async () => {
    const { owner, member, team } = await teamWithMembers();
    const stranger = await createUser('stranger');
    expect(await getWorkspace(member, team.id)).toMatchObject({ role: 'member' });
    expect(await getWorkspace(stranger, team.id)).toBeNull();
    const [mail] = (await readMailbox({ user: member }))!.emails;
    expect(mail).toMatchObject({ kind: 'invitation' });
    await expect(acceptInvitation(member, tokenOf(mail!.link!))).rejects.toMatchObject({ status: 410 });
    expect((await listMembers(owner, team.id)).map((m) => m.role)).toEqual(['owner', 'admin', 'member']);
  });

  it('refuses an invitation accepted by another email address, and an expired one', async () => {
    const { owner, team } = await teamWithMembers();
    const invitee = await createUser('invitee');
    const other = await createUser('other');
    const { link } = await createInvitation(owner, team.id, { email: invitee.email, role: 'member' });
    await expect(acceptInvitation(other, tokenOf(link))).rejects.toMatchObject({ status: 403 });
    await asService((tx) => tx.query(`update public.workspace_invitations set expires_at = now() - interval '1 minute' where workspace_id = $1`, [team.id]));
    await expect(acceptInvitation(invitee, tokenOf(link))).rejects.toMatchObject({ status: 410 });
    expect(await getWorkspace(invitee, team.id)).toBeNull();
  });

  it('enforces roles: members cannot invite, admins invite members only and cannot delete', async () => {
    const { admin, member, team } = await teamWithMembers();
    // Each refusal says who may do it and what was refused.
    const refused = (message: string) => ({ status: 403, message });
    await expect(createInvitation(member, team.id, { email: 'x@example.test', role: 'member' })).rejects.toMatchObject(refused('Only the owner and admins can invite people.'));
    await expect(createInvitation(admin, team.id, { email: 'y@example.test', role: 'admin' })).rejects.toMatchObject(refused('Only the owner can invite admins.'));
    await expect(createInvitation(admin, team.id, { email: 'z@example.test', role: 'member' })).resolves.toBeTruthy();
    await expect(deleteWorkspace(admin, team.id)).rejects.toMatchObject(refused('Only the owner can delete the workspace.'));
    await expect(changeRole(admin, team.id, member.id, 'admin')).rejects.toMatchObject(refused("Only the owner can change members' roles."));
    await expect(updateWorkspace(member, team.id, { name: 'Renamed' })).rejects.toMatchObject(refused('Only the owner and admins can change the workspace settings.'));
    await expect(updateWorkspace(admin, team.id, { name: 'Renamed' })).resolves.toMatchObject({ name: 'Renamed' });
  });

  it('keeps the owner forever: not removable, cannot leave, role never reassigned', async () => {
    const { owner, admin, member, team } = await teamWithMembers();
    await expect(removeMember(owner, team.id, owner.id)).rejects.toMatchObject({ status: 403 });
    await expect(removeMember(admin, team.id, owner.id)).rejects.toMatchObject({ status: 403 });
    await expect(changeRole(owner, team.id, owner.id, 'member')).rejects.toMatchObject({ status: 403 });
    // Even straight SQL under the owner's own session cannot do it.
    await expect(
      withUser(owner, (tx) => tx.query(`delete from public.workspace_members where workspace_id = $1 and user_id = $2`, [team.id, owner.id])),
    ).rejects.toMatchObject({ code: 'P0403' });
    await expect(
      withUser(owner, (tx) => tx.query(`update public.workspaces set owner_id = $2 where id = $1`, [team.id, member.id])),
    ).rejects.toMatchObject({ code: '42501' });
  });

  it('lets admins remove members but not admins; members leave on their own', async () => {
    const { owner, admin, member, team } = await teamWithMembers();
    const second = await createUser('second');
    await acceptInvitation(second, tokenOf((await createInvitation(owner, team.id, { email: second.email, role: 'member' })).link));
    await removeMember(admin, team.id, second.id);
    expect(await getWorkspace(second, team.id)).toBeNull();
    await changeRole(owner, team.id, member.id, 'admin');
    await expect(removeMember(admin, team.id, member.id)).rejects.toMatchObject({ status: 403, message: 'Only the owner can remove an admin.' });
    await removeMember(member, team.id, member.id);
    expect(await getWorkspace(member, team.id)).toBeNull();
  });

  it('never deletes a personal workspace; the owner deletes a team workspace with everything in it', async () => {
    const { owner, member, team } = await teamWithMembers();
    const personal = (await listWorkspaces(owner)).find((w) => w.isPersonal)!;
    await expect(deleteWorkspace(owner, personal.id)).rejects.toMatchObject({ status: 403 });
    await expect(withUser(owner, (tx) => tx.query('delete from public.workspaces where id = $1', [personal.id]))).resolves.toEqual([]);
    await deleteWorkspace(owner, team.id);
    expect(await getWorkspace(member, team.id)).toBeNull();
    const [left] = await asService((tx) => tx.query<{ n: number }>('select count(*)::int as n from public.workspace_members where workspace_id = $1', [team.id]));
    expect(left!.n).toBe(0);
  });

  it('rejects invalid settings without writing anything', async () => {
    const owner = await createUser('invalid');
    const team = await createWorkspace(owner, { name: 'Valid' });
    await expect(withUser(owner, (tx) => tx.query(`update public.workspaces set plan = 'business' where id = $1`, [team.id]))).rejects.toMatchObject({
      code: '42501',
    });
    expect((await getWorkspace(owner, team.id))!.plan).toBe('free');
  });
});
