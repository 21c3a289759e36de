import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Conversation } from '@/components/topics/conversation';
import { PageHeader } from '@/components/ui/page-header';
import { getI18n } from '@/lib/i18n/server';
import { getSession, getTopic } from '@/lib/topics';
import { orNotFound, pageCaller } from '../../../caller';

type Params = Promise<{ workspaceId: string; topicId: string; sessionId: string }>;

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('topics.conversation') };
}

export default async function SessionPage({ params }: { params: Params }) {
  const { workspaceId, topicId, sessionId } = await params;
  const [{ caller, workspace }, { t }] = await Promise.all([pageCaller(workspaceId), getI18n()]);
  const [topic, { session, requests }] = await Promise.all([orNotFound(getTopic(caller, topicId)), orNotFound(getSession(caller, sessionId))]);
  if (session.topic_id !== topic.id) notFound();
  return (
    <>
      <PageHeader title={t('topics.conversation')} description={t('topics.sessionOf', { topic: topic.name })} back={{ href: `/w/${workspace.id}/topics/${topic.id}`, label: topic.name }} />
      <Conversation workspaceId={workspace.id} initial={{ ...session, requests }} />
    </>
  );
}
