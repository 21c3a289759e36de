import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { Logo } from '@/components/brand/logo';
import { OnboardingFlow } from '@/components/onboarding/onboarding-flow';
import { sectorOptions, timeZoneOptions } from '@/components/workspaces/options';
import { serialize } from '@/lib/api';
import { getSessionUser } from '@/lib/auth';
import { getI18n } from '@/lib/i18n/server';
import { getOnboarding, SECTOR_STARTERS } from '@/lib/onboarding';
import { SECTORS } from '@/lib/workspaces';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('onboarding.title') };
}

/** Where sign-up leads, and where "Finish setting up" brings a person back to the screen they left. */
export default async function WelcomePage() {
  const [user, { t, locale }] = await Promise.all([getSessionUser(), getI18n()]);
  if (!user) redirect('/sign-in?next=%2Fwelcome');
  const onboarding = await getOnboarding(user);
  if (onboarding?.completedAt && onboarding.workspaceId) redirect(`/w/${onboarding.workspaceId}`);
  // The sector's starter services in the language of the screen, for the services step to start from.
  const starters = Object.fromEntries(
    Object.entries(SECTOR_STARTERS).map(([sector, starter]) => [
      sector,
      starter.services.map((service) => ({ name: service.name[locale], durationMinutes: service.durationMinutes, priceCents: service.priceCents })),
    ]),
  );

  return (
    <div className="mx-auto flex min-h-dvh max-w-xl flex-col px-4 py-6 sm:py-10">
      <header className="mb-6 flex items-center justify-between">
        <Logo />
        <span className="text-sm text-muted">{t('onboarding.title')}</span>
      </header>
      <main id="main" tabIndex={-1}>
        <OnboardingFlow
          initial={onboarding ? serialize(onboarding) : null}
          sectors={sectorOptions(SECTORS, locale)}
          timeZones={timeZoneOptions()}
          starters={starters}
        />
      </main>
    </div>
  );
}
