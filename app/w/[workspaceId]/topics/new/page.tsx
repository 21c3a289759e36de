import type { Metadata } from 'next';
import { TopicForm } from '@/components/topics/topic-form';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { getI18n } from '@/lib/i18n/server';
import type { WorkspaceParams } from '../../current';
import { pageCaller } from '../caller';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('topics.newTopic') };
}

export default async function NewTopicPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ workspace }, { t }] = await Promise.all([pageCaller(workspaceId), getI18n()]);
  return (
    <>
      <PageHeader title={t('topics.newTopic')} back={{ href: `/w/${workspace.id}/topics`, label: t('topics.title') }} />
      <Card>
        <TopicForm workspaceId={workspace.id} />
      </Card>
    </>
  );
}
