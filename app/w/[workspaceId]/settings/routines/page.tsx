import type { Metadata } from 'next';
import { RoutinesView } from '@/components/routines/routines';
import type { AgentOption } from '@/components/routines/types';
import { Alert } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';
import { listWorkspaceAgents } from '@/lib/agents';
import { serialize } from '@/lib/api';
import { getI18n } from '@/lib/i18n/server';
import { MAX_INTERVAL_MINUTES, MAX_ROUTINES_PER_AGENT, MIN_INTERVAL_MINUTES, RUN_HISTORY_LIMIT, listRoutines } from '@/lib/schedule';
import { currentWorkspace, type WorkspaceParams } from '../../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('routines.title') };
}

/** Settings → Routines: owners and admins add and change them; members see the list, read-only. */
export default async function RoutinesPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ user, workspace }, { t }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const canManage = workspace.role !== 'member';
  const [routines, agents] = await Promise.all([listRoutines(user, workspace.id), canManage ? listWorkspaceAgents(user, workspace.id) : []]);

  return (
    <>
      <PageHeader title={t('routines.title')} description={t('routines.lead')} back={{ href: `/w/${workspace.id}/settings`, label: t('settings.title') }} />
      {!canManage && <Alert className="mb-6">{t('routines.membersNote')}</Alert>}
      <RoutinesView
        workspaceId={workspace.id}
        userId={user.id}
        canManage={canManage}
        timeZone={workspace.timeZone}
        agents={agents.map((agent): AgentOption => ({ id: agent.id, name: agent.name }))}
        limits={{ perAgent: MAX_ROUTINES_PER_AGENT, minMinutes: MIN_INTERVAL_MINUTES, maxMinutes: MAX_INTERVAL_MINUTES, historyRuns: RUN_HISTORY_LIMIT }}
        initialRoutines={serialize(routines)}
      />
    </>
  );
}
