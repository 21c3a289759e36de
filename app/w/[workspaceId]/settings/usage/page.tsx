import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/ui/page-header';
import { UsageView } from '@/components/usage/usage-view';
import { usageReport } from '@/lib/agent';
import { serialize } from '@/lib/api';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from '../../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('settings.usage') };
}

export default async function UsagePage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ user, workspace }, { t }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const report = await usageReport(user, workspace.id);
  if (!report) notFound();

  return (
    <>
      <PageHeader
        title={t('settings.usage')}
        description={t('settings.usageDescription')}
        back={{ href: `/w/${workspace.id}/settings`, label: t('settings.title') }}
      />
      <UsageView workspaceId={workspace.id} initial={serialize(report)} />
    </>
  );
}
