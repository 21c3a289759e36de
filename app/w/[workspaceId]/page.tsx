import type { Metadata } from 'next';
import Link from 'next/link';
import { OrbitArt } from '@/components/ui/art';
import { buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { displayName } from '@/components/workspaces/types';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from './current';

export async function generateMetadata({ params }: { params: WorkspaceParams }): Promise<Metadata> {
  const [{ workspace }, { t }] = await Promise.all([currentWorkspace((await params).workspaceId), getI18n()]);
  return { title: displayName(workspace, t) };
}

/** Home, until the daily brief exists: who this workspace is and what will appear here. */
export default async function HomePage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ workspace }, { t }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const canInvite = !workspace.isPersonal && workspace.role !== 'member';

  return (
    <>
      <header className="mb-8 flex flex-col gap-1">
        <p className="text-sm font-semibold text-accent-ink">{t('nav.home')}</p>
        <h1 className="text-3xl font-bold tracking-tight text-balance">{displayName(workspace, t)}</h1>
        <p className="text-[0.9375rem] text-pretty text-muted">{t('home.lead')}</p>
      </header>
      <EmptyState
        art={<OrbitArt />}
        title={t('home.emptyTitle')}
        body={t('home.emptyBody')}
        action={
          workspace.isPersonal ? (
            <Link href="/workspaces/new" className={buttonClass('secondary')}>
              {t('home.createTeam')}
            </Link>
          ) : canInvite ? (
            <Link href={`/w/${workspace.id}/settings/members`} className={buttonClass('secondary')}>
              {t('home.inviteTeam')}
            </Link>
          ) : null
        }
      />
    </>
  );
}
