import type { Metadata } from 'next';
import { ConversationList } from '@/components/chat/conversation-list';
import { listWorkspaceAgents } from '@/lib/agents';
import { serialize } from '@/lib/api';
import { listConversations } from '@/lib/chat';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from '../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('nav.chat') };
}

export default async function ChatPage({ params }: { params: WorkspaceParams }) {
  const { user, workspace } = await currentWorkspace((await params).workspaceId);
  const [conversations, agents] = await Promise.all([listConversations(user, workspace.id), listWorkspaceAgents(user, workspace.id)]);
  return (
    <ConversationList
      viewer={{ id: user.id, workspaceId: workspace.id }}
      initialConversations={serialize(conversations)}
      initialAgents={serialize(agents)}
    />
  );
}
