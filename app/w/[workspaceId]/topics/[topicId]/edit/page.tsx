import type { Metadata } from 'next';
import { TopicForm } from '@/components/topics/topic-form';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { getI18n } from '@/lib/i18n/server';
import { getTopic } from '@/lib/topics';
import { orNotFound, pageCaller } from '../../caller';

type Params = Promise<{ workspaceId: string; topicId: string }>;

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('topics.edit') };
}

export default async function EditTopicPage({ params }: { params: Params }) {
  const { workspaceId, topicId } = await params;
  const [{ caller, workspace }, { t }] = await Promise.all([pageCaller(workspaceId), getI18n()]);
  const topic = await orNotFound(getTopic(caller, topicId));
  return (
    <>
      <PageHeader title={t('topics.editNamed', { name: topic.name })} back={{ href: `/w/${workspace.id}/topics/${topic.id}`, label: topic.name }} />
      <Card>
        <TopicForm workspaceId={workspace.id} topic={topic} />
      </Card>
    </>
  );
}
