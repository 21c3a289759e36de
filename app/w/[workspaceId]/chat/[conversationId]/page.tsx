import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { ConversationScreen } from '@/components/chat/conversation-view';
import { conversationTitle } from '@/components/chat/parts';
import { PAGE, type MessageWindow } from '@/components/chat/queries';
import { listWorkspaceAgents } from '@/lib/agents';
import { ApiError, serialize } from '@/lib/api';
import { getConversation, listMessages } from '@/lib/chat';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace } from '../../current';

type Params = Promise<{ workspaceId: string; conversationId: string }>;

/**
 * The conversation, or a 404 when it does not exist, is elsewhere, or is not the caller's to read.
 * Cached per request: the metadata and the page share one lookup.
 */
const load = cache(async (workspaceId: string, conversationId: string) => {
  const { user, workspace } = await currentWorkspace(workspaceId);
  try {
    const conversation = await getConversation(user, conversationId);
    if (conversation.workspaceId !== workspace.id) notFound();
    return { user, workspace, conversation };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { workspaceId, conversationId } = await params;
  const [{ user, conversation }, { t }] = await Promise.all([load(workspaceId, conversationId), getI18n()]);
  return { title: conversationTitle(serialize(conversation), user.id, t) };
}

export default async function ConversationPage({ params }: { params: Params }) {
  const { workspaceId, conversationId } = await params;
  const { user, workspace, conversation } = await load(workspaceId, conversationId);
  const [history, agents] = await Promise.all([listMessages(user, conversation.id, { limit: PAGE }), listWorkspaceAgents(user, workspace.id)]);
  const initialWindow: MessageWindow = { messages: serialize(history.messages), hasOlder: history.nextCursor !== null };
  return (
    <ConversationScreen
      key={conversation.id}
      viewer={{ id: user.id, workspaceId: workspace.id }}
      initialConversation={serialize(conversation)}
      initialWindow={initialWindow}
      initialAgents={serialize(agents)}
    />
  );
}
