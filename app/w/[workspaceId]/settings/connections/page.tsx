import type { Metadata } from 'next';
import { Connections } from '@/components/connections/connections';
import { Alert } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';
import { serialize } from '@/lib/api';
import { isProvider, listConnections } from '@/lib/connections';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from '../../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('connections.title') };
}

const OUTCOMES = { connected: 'connections.connectedNow', denied: 'connections.denied', failed: 'connections.failed' } as const;

/** Settings → Connections: members see what is connected; owners and admins connect and disconnect. */
export default async function ConnectionsPage({ params, searchParams }: { params: WorkspaceParams; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { workspaceId } = await params;
  const [{ user, workspace }, { t }, query] = await Promise.all([currentWorkspace(workspaceId), getI18n(), searchParams]);
  const views = await listConnections(user, workspace.id);
  const canManage = workspace.role !== 'member';
  // What the provider's round trip ended with (the callback's redirect says it): shown once, at the top.
  const outcome = (Object.keys(OUTCOMES) as Array<keyof typeof OUTCOMES>).find((key) => typeof query[key] === 'string' && isProvider(query[key]));
  const providerOf = (key: keyof typeof OUTCOMES) => t(query[key] === 'google' ? 'connections.google' : 'connections.github');
  return (
    <>
      <PageHeader
        title={t('connections.title')}
        description={t(workspace.isPersonal ? 'connections.personalLead' : 'connections.teamLead')}
        back={{ href: `/w/${workspace.id}/settings`, label: t('settings.title') }}
      />
      <div className="flex flex-col gap-4">
        {outcome && <Alert tone={outcome === 'connected' ? 'success' : 'error'}>{t(OUTCOMES[outcome], { provider: providerOf(outcome) })}</Alert>}
        {!canManage && <Alert>{t('connections.adminsOnly')}</Alert>}
        <Connections workspaceId={workspace.id} initial={serialize(views)} canManage={canManage} />
      </div>
    </>
  );
}
