import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { AgentForm } from '@/components/agents/agent-form';
import { AgentKeys, DeleteAgent } from '@/components/agents/agent-keys';
import { AgentFacts, Presence } from '@/components/agents/parts';
import { agentsPath } from '@/components/agents/types';
import { Alert } from '@/components/ui/alert';
import { Card, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { describeBackends } from '@/lib/agent';
import { getAgentIn, listAgentKeysIn, type WorkspaceAgent } from '@/lib/agents';
import { ApiError, serialize } from '@/lib/api';
import { config } from '@/lib/config';
import { getI18n } from '@/lib/i18n/server';
import { listWorkspaces } from '@/lib/workspaces';
import { currentWorkspace } from '../../../current';

type Params = Promise<{ workspaceId: string; agentId: string }>;

async function agentOr404(load: () => Promise<WorkspaceAgent>): Promise<WorkspaceAgent> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) notFound();
    throw error;
  }
}

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('agentsScreen.title') };
}

/** One agent: those who manage it change it, key it and delete it; everyone else reads what it does. */
export default async function AgentPage({ params }: { params: Params }) {
  const { workspaceId, agentId } = await params;
  const [{ user, workspace }, { t }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const agent = await agentOr404(() => getAgentIn(user, workspace.id, agentId));
  const back = { href: agentsPath(workspace.id), label: t('agentsScreen.title') };
  const header = <PageHeader title={agent.name} description={<Presence online={agent.online} t={t} />} back={back} />;

  if (!agent.manageable) {
    return (
      <>
        {header}
        <div className="flex flex-col gap-5">
          <Alert>{t(workspace.role === 'member' ? 'agentsScreen.membersNote' : 'agentsScreen.managedElsewhereNote')}</Alert>
          <Card>
            <dl className="flex flex-col gap-3 text-[0.9375rem]">
              {(
                [
                  ['agentsScreen.role', agent.role],
                  ['agentsScreen.capabilities', agent.capabilities.join(', ')],
                  ['agentsScreen.instructions', agent.instructions],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="flex flex-col gap-0.5">
                  <dt className="text-sm font-semibold">{t(label)}</dt>
                  <dd className="whitespace-pre-line">{value || t('agentsScreen.notSet')}</dd>
                </div>
              ))}
              <div className="flex flex-col gap-0.5">
                <dt className="text-sm font-semibold">{t('agentsScreen.backend')}</dt>
                <dd>
                  <AgentFacts agent={agent} t={t} />
                </dd>
              </div>
            </dl>
          </Card>
        </div>
      </>
    );
  }

  const [workspaces, keys] = await Promise.all([listWorkspaces(user), listAgentKeysIn(user, workspace.id, agent.id)]);
  const places = workspaces.filter((w) => w.role !== 'member').map((w) => ({ id: w.id, name: w.name, isPersonal: w.isPersonal }));
  const view = serialize(agent);
  return (
    <>
      {header}
      <div className="flex flex-col gap-6">
        <Card>
          <CardTitle>{t('agentsScreen.settings')}</CardTitle>
          <div className="mt-4">
            <AgentForm workspaceId={workspace.id} backends={describeBackends().backends} places={places} agent={view} ownsAgent={agent.ownerUserId === user.id} />
          </div>
        </Card>
        <AgentKeys workspaceId={workspace.id} agent={view} initialKeys={serialize(keys)} appUrl={config().APP_URL} />
        <DeleteAgent workspaceId={workspace.id} agent={view} />
      </div>
    </>
  );
}
