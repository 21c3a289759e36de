'use client';

import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { BubblesArt } from '@/components/ui/art';
import { EmptyState } from '@/components/ui/empty-state';
import { formatRelative } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import { NewConversation } from './new-conversation';
import { Avatar, Presence, conversationTitle } from './parts';
import { agentsKey, conversationsKey, fetchAgents, fetchConversations } from './queries';
import type { AgentView, ConversationView, Viewer } from './types';
import { useLiveUpdates } from './use-live-updates';

/** How often agent presence is read again: it changes by heartbeats, not by chat events. */
export const PRESENCE_REFRESH_MS = 60_000;

/**
 * The workspace's conversations, latest first, each with its unread count and, for conversations
 * with agents, whether they are online. Updates live; the "New" button creates a channel or a DM.
 */
export function ConversationList({
  viewer,
  initialConversations,
  initialAgents,
}: {
  viewer: Viewer;
  initialConversations: ConversationView[];
  initialAgents: AgentView[];
}) {
  const { t, locale } = useI18n();
  useLiveUpdates(viewer.workspaceId);
  const conversations = useQuery({
    queryKey: conversationsKey(viewer.workspaceId),
    queryFn: () => fetchConversations(viewer.workspaceId),
    initialData: initialConversations,
  });
  const agents = useQuery({
    queryKey: agentsKey(viewer.workspaceId),
    queryFn: () => fetchAgents(viewer.workspaceId),
    initialData: initialAgents,
    refetchInterval: PRESENCE_REFRESH_MS,
  });
  const online = new Map(agents.data.map((a) => [a.id, a.online]));

  return (
    <>
      <header className="mb-5 flex items-start justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('nav.chat')}</h1>
          <p className="text-[0.9375rem] text-pretty text-muted">{t('chat.lead')}</p>
          <Link href={`/w/${viewer.workspaceId}/settings/agents`} className="inline-flex min-h-11 w-fit items-center text-sm font-semibold text-accent-ink underline underline-offset-2">
            {t('chat.allAgents')}
          </Link>
        </div>
        <NewConversation viewer={viewer} agents={agents.data} />
      </header>

      {conversations.data.length === 0 ? (
        <EmptyState art={<BubblesArt />} title={t('chat.emptyTitle')} body={t('chat.emptyBody')} />
      ) : (
        <ul className="-mx-2 flex flex-col" aria-label={t('chat.listLabel')}>
          {conversations.data.map((conversation) => {
            const title = conversationTitle(conversation, viewer.id, t);
            const agentMembers = conversation.members.filter((m) => m.kind === 'agent');
            const soloAgent = conversation.kind === 'dm' && agentMembers.length === 1 ? agentMembers[0]! : null;
            const when = conversation.lastMessageAt ?? conversation.createdAt;
            return (
              <li key={conversation.id}>
                <Link
                  href={`/w/${viewer.workspaceId}/chat/${conversation.id}`}
                  className="flex min-h-16 items-center gap-3 rounded-xl px-2 py-2.5 hover:bg-subtle"
                >
                  {conversation.kind === 'channel' ? (
                    <span aria-hidden className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-subtle text-lg font-semibold text-muted">
                      #
                    </span>
                  ) : (
                    <Avatar name={soloAgent?.name ?? title} kind={soloAgent || conversation.kind === 'delegation' ? 'agent' : 'person'} />
                  )}
                  <span className="flex min-w-0 flex-1 flex-col">
                    <span className={`truncate ${conversation.unread ? 'font-bold' : 'font-semibold'}`}>{title}</span>
                    <span className="flex min-w-0 flex-wrap items-center gap-x-2 text-sm text-muted">
                      {soloAgent ? (
                        <Presence online={online.get(soloAgent.id) ?? false} t={t} />
                      ) : agentMembers.length > 0 ? (
                        <span>{t('chat.agentsOnline', { online: agentMembers.filter((a) => online.get(a.id)).length, count: agentMembers.length })}</span>
                      ) : null}
                      {conversation.kind === 'delegation' && (
                        <span>{conversation.resolutionMessageId ? t('chat.delegationDone') : t('chat.delegationOpen')}</span>
                      )}
                      <time dateTime={when} suppressHydrationWarning>
                        {formatRelative(when, locale)}
                      </time>
                    </span>
                  </span>
                  {conversation.unread > 0 && (
                    <span className="inline-flex min-w-6 items-center justify-center rounded-full bg-accent px-1.5 text-xs font-bold text-on-accent">
                      <span aria-hidden>{conversation.unread}</span>
                      <span className="sr-only">{t('chat.unread', { count: conversation.unread })}</span>
                    </span>
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
