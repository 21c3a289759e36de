import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { Logo } from '@/components/brand/logo';
import { Card } from '@/components/ui/card';
import { ChevronLeftIcon } from '@/components/ui/icons';
import { CreateWorkspaceForm } from '@/components/workspaces/create-workspace-form';
import { sectorOptions, timeZoneOptions } from '@/components/workspaces/options';
import { getSessionUser } from '@/lib/auth';
import { getI18n } from '@/lib/i18n/server';
import { SECTORS } from '@/lib/workspaces';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('createWorkspace.title') };
}

/** A page rather than a dialog: it has a URL, works on every screen size and keeps the shell simple. */
export default async function NewWorkspacePage() {
  const [user, { t, locale }] = await Promise.all([getSessionUser(), getI18n()]);
  if (!user) redirect('/sign-in?next=%2Fworkspaces%2Fnew');

  return (
    <div className="mx-auto flex min-h-dvh max-w-xl flex-col px-4 py-6 sm:py-10">
      <header className="mb-6 flex items-center justify-between">
        <Link href="/" className="-ml-2 inline-flex min-h-11 items-center gap-1 rounded-lg px-2 text-sm font-semibold text-accent-ink hover:bg-subtle">
          <ChevronLeftIcon />
          {t('common.back')}
        </Link>
        <Logo />
      </header>
      <main id="main" tabIndex={-1}>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('createWorkspace.title')}</h1>
        <p className="mt-1 mb-6 text-[0.9375rem] text-pretty text-muted">{t('createWorkspace.lead')}</p>
        <Card>
          <CreateWorkspaceForm timeZones={timeZoneOptions()} sectors={sectorOptions(SECTORS, locale)} />
        </Card>
      </main>
    </div>
  );
}
