import Link from 'next/link';
import type { ReactNode } from 'react';
import { ClientMessages } from '@/components/client-messages';
import { LogoMark } from '@/components/brand/logo';
import { NavLinks } from '@/components/shell/nav-links';
import { RememberWorkspace } from '@/components/shell/remember-workspace';
import { WorkspaceSwitcher } from '@/components/shell/workspace-switcher';
import { toSummary } from '@/components/workspaces/types';
import { getI18n } from '@/lib/i18n/server';
import { listWorkspaces } from '@/lib/workspaces';
import { currentWorkspace, type WorkspaceParams } from './current';

/**
 * The app shell. Phones: a top bar with the workspace switcher and a bottom tab bar. From 1024 px:
 * one sidebar with the switcher and every destination (the phone keeps the less daily ones under
 * "More": components/shell/nav-links.tsx). Both bars have fixed heights, so
 * nothing moves as pages load.
 */
export default async function WorkspaceLayout({ children, params }: { children: ReactNode; params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const { user, workspace } = await currentWorkspace(workspaceId);
  const [workspaces, { t }] = await Promise.all([listWorkspaces(user), getI18n()]);

  return (
    <ClientMessages segment="workspace">
      <div className="min-h-dvh lg:grid lg:grid-cols-[17rem_minmax(0,1fr)]">
        <aside className="sticky top-0 z-30 border-b border-line bg-bg/95 backdrop-blur lg:flex lg:h-dvh lg:flex-col lg:gap-6 lg:border-r lg:border-b-0 lg:px-3 lg:py-4">
          <div className="flex h-16 items-center gap-2 px-3 lg:h-auto lg:flex-col lg:items-stretch lg:gap-4 lg:px-0">
            <Link href={`/w/${workspace.id}`} className="hidden w-fit items-center gap-2 rounded-lg px-2 text-lg font-bold tracking-tight lg:flex">
              <LogoMark />
              Multiverbe
            </Link>
            <div className="min-w-0 flex-1 lg:flex-none">
              <WorkspaceSwitcher current={toSummary(workspace)} workspaces={workspaces.map(toSummary)} email={user.email} />
            </div>
          </div>
          <nav aria-label={t('nav.label')} className="hidden lg:block">
            <NavLinks workspaceId={workspace.id} variant="sidebar" />
          </nav>
        </aside>

        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-3xl px-4 pt-6 pb-[calc(6rem+env(safe-area-inset-bottom))] sm:px-6 lg:px-10 lg:pt-10 lg:pb-12">
          {children}
        </main>

        <nav
          aria-label={t('nav.label')}
          className="fixed inset-x-0 bottom-0 z-30 border-t border-line bg-surface/95 pb-[env(safe-area-inset-bottom)] backdrop-blur lg:hidden"
        >
          <NavLinks workspaceId={workspace.id} variant="bar" />
        </nav>
        <RememberWorkspace id={workspace.id} />
      </div>
    </ClientMessages>
  );
}
