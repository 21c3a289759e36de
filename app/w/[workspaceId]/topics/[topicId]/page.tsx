import type { Metadata } from 'next';
import { TopicView } from '@/components/topics/topic-view';
import { PageHeader } from '@/components/ui/page-header';
import { config } from '@/lib/config';
import { getI18n } from '@/lib/i18n/server';
import { getTopic, listRequests } from '@/lib/topics';
import { orNotFound, pageCaller } from '../caller';

type Params = Promise<{ workspaceId: string; topicId: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { workspaceId, topicId } = await params;
  const { caller } = await pageCaller(workspaceId);
  return { title: (await orNotFound(getTopic(caller, topicId))).name };
}

export default async function TopicPage({ params }: { params: Params }) {
  const { workspaceId, topicId } = await params;
  const [{ caller, workspace }, { t }] = await Promise.all([pageCaller(workspaceId), getI18n()]);
  const topic = await orNotFound(getTopic(caller, topicId));
  const requests = await listRequests(caller, { topic_id: topic.id, limit: 50 });
  return (
    <>
      <PageHeader title={topic.name} back={{ href: `/w/${workspace.id}/topics`, label: t('topics.title') }} />
      <TopicView workspaceId={workspace.id} initialTopic={topic} initialRequests={requests} defaultModel={config().CLAUDE_MODEL} />
    </>
  );
}
