import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Conversation } from '@/components/topics/conversation';
import { topicMessages } from '@/components/topics/messages';
import { PageHeader } from '@/components/ui/page-header';
import { getI18n } from '@/lib/i18n/server';
import { getSession, getTopic } from '@/lib/topics';
import { orNotFound, pageCaller } from '../../../caller';

type Params = Promise<{ workspaceId: string; topicId: string; sessionId: string }>;

export async function generateMetadata(): Promise<Metadata> {
  return { title: topicMessages((await getI18n()).locale).conversation };
}

export default async function SessionPage({ params }: { params: Params }) {
  const { workspaceId, topicId, sessionId } = await params;
  const [{ caller, workspace }, { locale }] = await Promise.all([pageCaller(workspaceId), getI18n()]);
  const m = topicMessages(locale);
  const [topic, { session, requests }] = await Promise.all([orNotFound(getTopic(caller, topicId)), orNotFound(getSession(caller, sessionId))]);
  if (session.topic_id !== topic.id) notFound();
  return (
    <>
      <PageHeader title={m.conversation} description={m.sessionOf(topic.name)} back={{ href: `/w/${workspace.id}/topics/${topic.id}`, label: topic.name }} />
      <Conversation workspaceId={workspace.id} initial={{ ...session, requests }} />
    </>
  );
}
