import type { Metadata } from 'next';
import { topicMessages } from '@/components/topics/messages';
import { TopicForm } from '@/components/topics/topic-form';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { getI18n } from '@/lib/i18n/server';
import type { WorkspaceParams } from '../../current';
import { pageCaller } from '../caller';

export async function generateMetadata(): Promise<Metadata> {
  return { title: topicMessages((await getI18n()).locale).newTopic };
}

export default async function NewTopicPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ workspace }, { locale }] = await Promise.all([pageCaller(workspaceId), getI18n()]);
  const m = topicMessages(locale);
  return (
    <>
      <PageHeader title={m.newTopic} back={{ href: `/w/${workspace.id}/topics`, label: m.title }} />
      <Card>
        <TopicForm workspaceId={workspace.id} />
      </Card>
    </>
  );
}
