import type { Metadata } from 'next';
import Link from 'next/link';
import { AgentFacts, Presence } from '@/components/agents/parts';
import { agentsPath } from '@/components/agents/types';
import { Alert } from '@/components/ui/alert';
import { OrbitArt } from '@/components/ui/art';
import { buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ChevronRightIcon, PlusIcon } from '@/components/ui/icons';
import { PageHeader } from '@/components/ui/page-header';
import { listAgentsIn } from '@/lib/agents';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from '../../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('agentsScreen.title') };
}

/** Settings → Agents: everyone sees the workspace's agents and whether they are online; owners and admins make and change them. */
export default async function AgentsPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ user, workspace }, { t }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const agents = await listAgentsIn(user, workspace.id);
  const canManage = workspace.role !== 'member';
  const base = agentsPath(workspace.id);
  const create = canManage && (
    <Link href={`${base}/new`} className={buttonClass('primary', 'self-start')}>
      <PlusIcon />
      {t('agentsScreen.new')}
    </Link>
  );

  return (
    <>
      <PageHeader title={t('agentsScreen.title')} description={t('agentsScreen.lead')} back={{ href: `/w/${workspace.id}/settings`, label: t('settings.title') }} />
      <div className="flex flex-col gap-5">
        {!canManage && <Alert>{t('agentsScreen.membersNote')}</Alert>}
        {agents.length === 0 ? (
          <EmptyState art={<OrbitArt />} title={t('agentsScreen.emptyTitle')} body={t(canManage ? 'agentsScreen.emptyBody' : 'agentsScreen.emptyBodyMember')} action={create || undefined} />
        ) : (
          <>
            {create}
            <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface shadow-card" aria-label={t('agentsScreen.listLabel')}>
              {agents.map((agent) => (
                <li key={agent.id}>
                  <Link href={`${base}/${agent.id}`} className="flex min-h-16 items-center gap-3 px-4 py-3 hover:bg-subtle sm:px-5">
                    <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                      <span className="flex flex-wrap items-center gap-x-2">
                        <span className="truncate font-semibold">{agent.name}</span>
                        <Presence online={agent.online} t={t} />
                      </span>
                      {agent.role && <span className="truncate text-[0.9375rem]">{agent.role}</span>}
                      <AgentFacts agent={agent} t={t} />
                    </span>
                    <ChevronRightIcon className="shrink-0 text-muted" />
                  </Link>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </>
  );
}
