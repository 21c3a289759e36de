import type { Metadata } from 'next';
import Link from 'next/link';
import { StopMessage } from '@/components/autonomy/stop-message';
import { ChannelSettingsForms } from '@/components/channels/channel-settings';
import { CopyMessage } from '@/components/home/copy-message';
import { copyable, deliveryText } from '@/components/home/delivery';
import { buttonClass } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
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
        <Card>
          <CardTitle>{t('channels.outboxTitle')}</CardTitle>
          {messages.length === 0 ? (
            <p className="mt-2 text-[0.9375rem] text-muted">{t('autonomy.outboxEmpty')}</p>
          ) : (
            <ul className="mt-3 divide-y divide-line">
              {messages.map((m) => (
                <li key={m.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start">
                  <div className="flex min-w-0 flex-1 flex-col gap-1">
                    <span className="text-sm font-semibold">
                      {m.recipientName} · {t(`channel.${m.channel}`)} {m.recipient}
                    </span>
                    <p className="text-sm text-pretty break-words text-muted">{m.body}</p>
                    <span className="text-xs text-muted">{deliveryText(m, locale, tz, t)}</span>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    {copyable(m) && <CopyMessage text={m.body} name={m.recipientName || m.recipient} labels={{ copy: t('delivery.copy'), copied: t('delivery.copied') }} />}
                    {m.status === 'queued' && <StopMessage workspaceId={workspace.id} messageId={m.id} name={m.recipientName} />}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </>
  );
}
