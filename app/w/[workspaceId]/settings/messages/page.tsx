import type { Metadata } from 'next';
import Link from 'next/link';
import { OutboxCard } from '@/components/autonomy/outbox-card';
import { ChannelSettingsForms } from '@/components/channels/channel-settings';
import { buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { OrbitArt } from '@/components/ui/art';
import { PageHeader } from '@/components/ui/page-header';
import { serialize } from '@/lib/api';
import { listOutbox } from '@/lib/autonomy';
import { readChannelSettings } from '@/lib/channels';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from '../../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('channels.title') };
}

/** Settings → Messages: the workspace's email and SMS connections and its outgoing messages; owner and admins only. */
export default async function MessagesSettingsPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ user, workspace }, { t, locale }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const back = { href: `/w/${workspace.id}/settings`, label: t('settings.title') };

  if (workspace.role === 'member') {
    return (
      <>
        <PageHeader title={t('channels.title')} back={back} />
        <EmptyState
          art={<OrbitArt />}
          title={t('channels.forbiddenTitle')}
          body={t('channels.forbiddenBody')}
          action={
            <Link href={`/w/${workspace.id}`} className={buttonClass('secondary')}>
              {t('nav.home')}
            </Link>
          }
        />
      </>
    );
  }

  const [settings, outbox] = await Promise.all([readChannelSettings(user, workspace.id), listOutbox(user, workspace.id, { limit: 30 })]);
  const messages = serialize(outbox);
  const tz = workspace.timeZone;

  return (
    <>
      <PageHeader title={t('channels.title')} description={t('channels.lead')} back={back} />
      <div className="flex flex-col gap-6">
        <ChannelSettingsForms workspaceId={workspace.id} initial={serialize(settings)} />
        <OutboxCard workspaceId={workspace.id} messages={messages} title={t('channels.outboxTitle')} locale={locale} timeZone={tz} t={t} />
      </div>
    </>
  );
}
