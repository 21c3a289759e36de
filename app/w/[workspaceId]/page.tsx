import type { Metadata } from 'next';
import { Suspense } from 'react';
import { CustomizeHome } from '@/components/home/customize-home';
import { HomeBrief } from '@/components/home/home-brief';
import { HomeSkeleton } from '@/components/home/home-skeleton';
import type { DailyBriefView } from '@/components/home/types';
import { displayName } from '@/components/workspaces/types';
import { serialize } from '@/lib/api';
import { composeDailyBrief } from '@/lib/home';
import { getI18n } from '@/lib/i18n/server';
import { log } from '@/lib/log';
import { currentWorkspace, type WorkspaceParams } from './current';

export async function generateMetadata({ params }: { params: WorkspaceParams }): Promise<Metadata> {
  const [{ workspace }, { t }] = await Promise.all([currentWorkspace((await params).workspaceId), getI18n()]);
  return { title: displayName(workspace, t) };
}

/**
 * Home: the daily brief. The heading renders at once; the brief streams in behind a skeleton of the
 * same shape, straight from lib/home (no client fetch), so the first paint needs no JavaScript.
 */
export default async function HomePage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ workspace }, { t, locale }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const today = new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', timeZone: workspace.timeZone }).format(new Date());

  return (
    <>
      <header className="mb-5 flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="text-sm font-semibold text-accent-ink first-letter:uppercase">{today}</p>
          <h1 className="text-3xl font-bold tracking-tight text-balance">{displayName(workspace, t)}</h1>
        </div>
        <Suspense fallback={<span className="block h-11 w-24" />}>
          <Customize workspaceId={workspace.id} />
        </Suspense>
      </header>
      <Suspense fallback={<HomeSkeleton label={t('home.loading')} />}>
        <Brief workspaceId={workspace.id} />
      </Suspense>
    </>
  );
}

async function Brief({ workspaceId }: { workspaceId: string }) {
  const [{ user }, { t, locale }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  let brief: DailyBriefView;
  try {
    brief = serialize<DailyBriefView>(await composeDailyBrief(user, workspaceId));
  } catch (error) {
    log('error', 'daily brief failed', { workspaceId, error });
    return (
      <div role="alert" className="rounded-2xl border border-danger/40 bg-danger-soft px-5 py-6">
        <h2 className="text-lg font-semibold">{t('home.errorTitle')}</h2>
        <p className="mt-1 text-[0.9375rem] text-pretty">{t('home.errorBody')}</p>
        <a href="" className="mt-3 inline-flex min-h-11 items-center font-semibold underline">
          {t('home.reload')}
        </a>
      </div>
    );
  }
  return <HomeBrief brief={brief} locale={locale} t={t} />;
}

async function Customize({ workspaceId }: { workspaceId: string }) {
  const { user } = await currentWorkspace(workspaceId);
  const { getHomePrefs } = await import('@/lib/home');
  return <CustomizeHome workspaceId={workspaceId} prefs={await getHomePrefs(user, workspaceId)} />;
}
