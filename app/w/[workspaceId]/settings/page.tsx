import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { SignOutButton } from '@/components/auth/sign-out-button';
import { SettingsLink } from '@/components/settings/settings-link';
import { Card, CardTitle } from '@/components/ui/card';
import { AgentIcon, BellIcon, GaugeIcon, GlobeIcon, KeyIcon, LinkIcon, PlanetIcon, QueueIcon, RoutineIcon, StoreIcon, UploadIcon, UsersIcon } from '@/components/ui/icons';
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
  const admin = workspace.role !== 'member';
  const sections: Array<{ id: string; title: string; links: Array<{ href: string; icon: ReactNode; title: string; description: string } | false> }> = [
    {
      id: 'workspace',
      title: t('settings.workspaceSection'),
      links: [
        { href: `${base}/workspace`, icon: <StoreIcon />, title: t('settings.workspace'), description: t('settings.workspaceDescription') },
        { href: `${base}/members`, icon: <UsersIcon />, title: t('settings.members'), description: t('settings.membersDescription') },
        { href: `${base}/usage`, icon: <GaugeIcon />, title: t('settings.usage'), description: t('settings.usageDescription') },
        { href: `${base}/agents`, icon: <AgentIcon />, title: t('agentsScreen.title'), description: t('agentsScreen.lead') },
        { href: `${base}/routines`, icon: <RoutineIcon />, title: t('settings.routines'), description: t('settings.routinesDescription') },
        admin && { href: `${base}/autonomy`, icon: <PlanetIcon />, title: t('settings.autonomy'), description: t('settings.autonomyDescription') },
        admin && { href: `${base}/messages`, icon: <GlobeIcon />, title: t('channels.title'), description: t('channels.description') },
        admin && { href: `${base}/data`, icon: <UploadIcon />, title: t('settings.data'), description: t('settings.dataDescription') },
      ],
    },
    {
      id: 'software',
      title: t('settings.softwareSection'),
      links: [
        admin && { href: `/w/${workspace.id}/topics`, icon: <QueueIcon />, title: t('settings.topics'), description: t('settings.topicsDescription') },
        admin && { href: `${base}/api-keys`, icon: <KeyIcon />, title: t('settings.apiKeys'), description: t('settings.apiKeysDescription') },
        { href: `${base}/connections`, icon: <LinkIcon />, title: t('connections.title'), description: t('connections.linkDescription') },
      ],
    },
    {
      id: 'you',
      title: t('settings.youSection'),
      links: [
        { href: `${base}/language`, icon: <GlobeIcon />, title: t('settings.language'), description: t('settings.languageDescription') },
        { href: `${base}/notifications`, icon: <BellIcon />, title: t('pushSettings.link'), description: t('pushSettings.linkDescription') },
      ],
    },
  ];

  return (
    <>
      <PageHeader title={t('settings.title')} />
      <div className="flex flex-col gap-6">
        {sections.map(({ id, title, links }) => {
          const shown = links.filter((link) => link !== false);
          if (shown.length === 0) return null;
          return (
            <section key={id} aria-labelledby={`settings-${id}`}>
              <h2 id={`settings-${id}`} className="mb-2 px-1 text-sm font-semibold text-muted">
                {title}
              </h2>
              <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface shadow-card">
                {shown.map((link) => (
                  <li key={link.href}>
                    <SettingsLink {...link} />
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
        <Card>
          <CardTitle>{t('settings.account')}</CardTitle>
          <p className="mt-1 mb-4 text-[0.9375rem] break-all text-muted">{t('switcher.signedInAs', { email: user.email })}</p>
          <SignOutButton />
        </Card>
      </div>
    </>
  );
}
