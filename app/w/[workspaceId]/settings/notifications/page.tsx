import type { Metadata } from 'next';
import { PushSwitch } from '@/components/settings/push-switch';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { getI18n } from '@/lib/i18n/server';
import { vapidKeys } from '@/lib/push';
import { currentWorkspace, type WorkspaceParams } from '../../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('pushSettings.link') };
}

/**
 * A person's own setting, per device: whether this browser shows proposals that need their OK. Keys
 * that cannot be read (a secrets key rotated away) read as "not set up": the page still opens.
 */
export default async function NotificationsPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ workspace }, { t }, keys] = await Promise.all([currentWorkspace(workspaceId), getI18n(), vapidKeys().catch(() => null)]);
  return (
    <>
      <PageHeader
        title={t('pushSettings.link')}
        description={t('pushSettings.lead')}
        back={{ href: `/w/${workspace.id}/settings`, label: t('settings.title') }}
      />
      <Card>
        <PushSwitch publicKey={keys?.publicKey ?? null} />
        <p className="mt-4 text-sm text-pretty text-muted">{t('pushSettings.who')}</p>
      </Card>
    </>
  );
}
