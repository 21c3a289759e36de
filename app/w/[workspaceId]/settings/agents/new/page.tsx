import type { Metadata } from 'next';
import { AgentForm } from '@/components/agents/agent-form';
import { agentsPath } from '@/components/agents/types';
import { Alert } from '@/components/ui/alert';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { describeBackends } from '@/lib/agent';
import { getI18n } from '@/lib/i18n/server';
import { listWorkspaces } from '@/lib/workspaces';
import { currentWorkspace, type WorkspaceParams } from '../../../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('agentsScreen.newTitle') };
}

/** A new agent (owners and admins). Members are told who can make one. */
export default async function NewAgentPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ user, workspace }, { t }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const header = <PageHeader title={t('agentsScreen.newTitle')} description={t('agentsScreen.newLead')} back={{ href: agentsPath(workspace.id), label: t('agentsScreen.title') }} />;
  if (workspace.role === 'member') {
    return (
      <>
        {header}
        <Alert>{t('agentsScreen.membersNote')}</Alert>
      </>
    );
  }
  const places = (await listWorkspaces(user)).filter((w) => w.role !== 'member').map((w) => ({ id: w.id, name: w.name, isPersonal: w.isPersonal }));
  return (
    <>
      {header}
      <Card>
        <AgentForm workspaceId={workspace.id} backends={describeBackends().backends} places={places} ownsAgent />
      </Card>
    </>
  );
}
