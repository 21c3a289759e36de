import type { Metadata } from 'next';
import { SignOutButton } from '@/components/auth/sign-out-button';
import { SettingsLink } from '@/components/settings/settings-link';
import { Card, CardTitle } from '@/components/ui/card';
import { GaugeIcon, GlobeIcon, KeyIcon, PlanetIcon, QueueIcon, StoreIcon, UsersIcon } from '@/components/ui/icons';
import { PageHeader } from '@/components/ui/page-header';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from '../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('settings.title') };
}

export default async function SettingsPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ user, workspace }, { t }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const base = `/w/${workspace.id}/settings`;

  return (
    <>
      <PageHeader title={t('settings.title')} />
      <div className="flex flex-col gap-6">
        <section aria-labelledby="settings-workspace">
          <h2 id="settings-workspace" className="mb-2 px-1 text-sm font-semibold text-muted">
            {t('settings.workspaceSection')}
          </h2>
          <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface shadow-card">
            <li>
              <SettingsLink href={`${base}/workspace`} icon={<StoreIcon />} title={t('settings.workspace')} description={t('settings.workspaceDescription')} />
            </li>
            <li>
              <SettingsLink href={`${base}/members`} icon={<UsersIcon />} title={t('settings.members')} description={t('settings.membersDescription')} />
            </li>
            <li>
              <SettingsLink href={`${base}/usage`} icon={<GaugeIcon />} title={t('settings.usage')} description={t('settings.usageDescription')} />
            </li>
            {workspace.role !== 'member' && (
              <li>
                <SettingsLink href={`${base}/autonomy`} icon={<PlanetIcon />} title={t('settings.autonomy')} description={t('settings.autonomyDescription')} />
              </li>
            )}
          </ul>
        </section>
        {workspace.role !== 'member' && (
          <section aria-labelledby="settings-software">
            <h2 id="settings-software" className="mb-2 px-1 text-sm font-semibold text-muted">
              {t('settings.softwareSection')}
            </h2>
            <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface shadow-card">
              <li>
                <SettingsLink href={`/w/${workspace.id}/topics`} icon={<QueueIcon />} title={t('settings.topics')} description={t('settings.topicsDescription')} />
              </li>
              <li>
                <SettingsLink href={`${base}/api-keys`} icon={<KeyIcon />} title={t('settings.apiKeys')} description={t('settings.apiKeysDescription')} />
              </li>
            </ul>
          </section>
        )}
        <section aria-labelledby="settings-you">
          <h2 id="settings-you" className="mb-2 px-1 text-sm font-semibold text-muted">
            {t('settings.youSection')}
          </h2>
          <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface shadow-card">
            <li>
              <SettingsLink href={`${base}/language`} icon={<GlobeIcon />} title={t('settings.language')} description={t('settings.languageDescription')} />
            </li>
          </ul>
        </section>
        <Card>
          <CardTitle>{t('settings.account')}</CardTitle>
          <p className="mt-1 mb-4 text-[0.9375rem] break-all text-muted">{t('switcher.signedInAs', { email: user.email })}</p>
          <SignOutButton />
        </Card>
      </div>
    </>
  );
}
