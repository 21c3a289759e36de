import type { Metadata } from 'next';
import { BubblesArt } from '@/components/ui/art';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from '../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('nav.chat') };
}

export default async function ChatPage({ params }: { params: WorkspaceParams }) {
  const [, { t }] = await Promise.all([currentWorkspace((await params).workspaceId), getI18n()]);
  return (
    <>
      <PageHeader title={t('nav.chat')} description={t('chat.lead')} />
      <EmptyState art={<BubblesArt />} title={t('chat.emptyTitle')} body={t('chat.emptyBody')} />
    </>
  );
}
