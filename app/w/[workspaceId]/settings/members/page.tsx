import type { Metadata } from 'next';
import Link from 'next/link';
import { buttonClass } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { InvitationList } from '@/components/workspaces/invitation-list';
import { InviteForm } from '@/components/workspaces/invite-form';
import { LeaveWorkspace } from '@/components/workspaces/leave-workspace';
import { MemberList } from '@/components/workspaces/member-list';
import { displayName } from '@/components/workspaces/types';
import { serialize } from '@/lib/api';
import { getI18n } from '@/lib/i18n/server';
import { listInvitations, listMembers } from '@/lib/workspaces';
import { currentWorkspace, type WorkspaceParams } from '../../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('settings.members') };
}

export default async function MembersPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ user, workspace }, { t }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const manages = !workspace.isPersonal && workspace.role !== 'member';
  const [members, invitations] = await Promise.all([
    listMembers(user, workspace.id),
    manages ? listInvitations(user, workspace.id) : Promise.resolve([]),
  ]);

  return (
    <>
      <PageHeader
        title={t('settings.members')}
        description={t('settings.membersDescription')}
        back={{ href: `/w/${workspace.id}/settings`, label: t('settings.title') }}
      />
      <div className="flex flex-col gap-6">
        <Card>
          <CardTitle>{t('members.title', { count: members.length })}</CardTitle>
          <div className="mt-3">
            <MemberList
              workspaceId={workspace.id}
              viewer={{ userId: user.id, role: workspace.role }}
              initialMembers={serialize(members)}
            />
          </div>
        </Card>

        {workspace.isPersonal && (
          <Card>
            <CardTitle>{t('members.personalTitle')}</CardTitle>
            <p className="mt-2 mb-4 text-[0.9375rem] text-pretty text-muted">{t('members.personalBody')}</p>
            <Link href="/workspaces/new" className={buttonClass('secondary')}>
              {t('home.createTeam')}
            </Link>
          </Card>
        )}

        {manages && (
          <>
            <Card>
              <CardTitle>{t('invite.title')}</CardTitle>
              <p className="mt-1 mb-4 text-[0.9375rem] text-pretty text-muted">{t('invite.lead')}</p>
              <InviteForm workspaceId={workspace.id} canInviteAdmins={workspace.role === 'owner'} />
            </Card>
            <Card>
              <CardTitle>{t('invitations.title')}</CardTitle>
              <div className="mt-3">
                <InvitationList
                  workspaceId={workspace.id}
                  initialInvitations={serialize(invitations)}
                />
              </div>
            </Card>
          </>
        )}

        {!workspace.isPersonal && workspace.role !== 'owner' && (
          <Card>
            <CardTitle>{t('leave.title')}</CardTitle>
            <p className="mt-1 mb-4 text-[0.9375rem] text-pretty text-muted">{t('leave.lead', { name: displayName(workspace, t) })}</p>
            <LeaveWorkspace workspaceId={workspace.id} userId={user.id} name={displayName(workspace, t)} />
          </Card>
        )}
      </div>
    </>
  );
}
