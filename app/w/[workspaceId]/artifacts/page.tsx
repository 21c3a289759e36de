import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ConversationShelf } from '@/components/cards/conversation-shelf';
import { ArtifactChipLink } from '@/components/cards/message-attachments';
import { BubblesArt } from '@/components/ui/art';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { ApiError, serialize } from '@/lib/api';
import { listWorkspaceArtifacts } from '@/lib/artifacts';
import { listCardMessages } from '@/lib/cards';
import { getConversation } from '@/lib/chat';
import { formatRelative } from '@/lib/i18n';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from '../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('artifacts.title') };
}

/**
 * The workspace's artifacts, latest change first; with `?conversation=…`, one conversation's results
 * and files: its cards (with working buttons) and artifacts, newest first.
 */
export default async function ArtifactsPage({ params, searchParams }: { params: WorkspaceParams; searchParams: Promise<{ conversation?: string }> }) {
  const [{ workspaceId }, { conversation: conversationId }] = await Promise.all([params, searchParams]);
  const [{ user, workspace }, { t, locale }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const base = `/w/${workspace.id}/artifacts`;

  if (conversationId) {
    const found = await Promise.all([getConversation(user, conversationId), listCardMessages(user, conversationId)]).catch((error) => {
      if (error instanceof ApiError && error.code === 'not_found') notFound();
      throw error;
    });
    const [conversation, messages] = found;
    if (conversation.workspaceId !== workspace.id) notFound();
    const name = conversation.name ? `#${conversation.name}` : conversation.members.map((m) => m.name).join(', ');
    return (
      <>
        <PageHeader title={t('artifacts.conversationTitle')} description={t('artifacts.conversationLead', { conversation: name })} back={{ href: base, label: t('artifacts.title') }} />
        <ConversationShelf workspaceId={workspace.id} conversationId={conversation.id} initial={serialize(messages)} />
      </>
    );
  }

  const artifacts = await listWorkspaceArtifacts(user, workspace.id);
  return (
    <>
      <PageHeader title={t('artifacts.title')} description={t('artifacts.lead')} />
      {artifacts.length === 0 ? (
        <EmptyState art={<BubblesArt />} title={t('artifacts.emptyTitle')} body={t('artifacts.emptyBody')} />
      ) : (
        <ul className="flex flex-col gap-2">
          {artifacts.map((a) => (
            <li key={a.id} className="flex flex-col gap-1">
              <ArtifactChipLink chip={{ id: a.id, kind: a.kind, title: a.title, version: a.currentVersion }} href={`${base}/${a.id}`} />
              <p className="px-1 text-sm text-muted">
                {t('artifacts.version', { n: a.currentVersion })} · {t('artifacts.updated', { when: formatRelative(a.updatedAt, locale) })} ·{' '}
                <Link className="underline underline-offset-2" href={`${base}?conversation=${a.conversationId}`}>
                  {t('artifacts.in', { conversation: a.conversationName ? `#${a.conversationName}` : t('artifacts.directMessage') })}
                </Link>
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
