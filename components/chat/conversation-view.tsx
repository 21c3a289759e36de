'use client';

import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ChevronLeftIcon } from '@/components/ui/icons';
import { useI18n } from '@/lib/i18n/client';
import { Composer } from './composer';
import { PRESENCE_REFRESH_MS } from './conversation-list';
import { MessageActionsSheet, type MessageActionsSheetHandle } from './message-actions-sheet';
import { MessageItem, type MessageHandlers } from './message-item';
import { Presence, conversationTitle } from './parts';
import { agentsKey, conversationKey, fetchAgents, fetchConversation, type MessageWindow } from './queries';
import type { AgentView, ConversationView, Viewer } from './types';
import { useLiveUpdates } from './use-live-updates';
import { useMessageMutations } from './use-message-mutations';
import { useMessageWindow } from './use-message-window';
import { useNewMessageNotices } from './use-new-message-notices';
import { useReadMarks } from './use-read-marks';
import { useScrollPinning } from './use-scroll-pinning';

/**
 * One conversation, live. New messages arrive over the workspace's event stream and are fetched
 * through the API; the view follows them only if you are at the bottom, otherwise a button says
 * how many arrived below (and a screen reader hears who wrote what). Earlier messages load on
 * request without moving what you are reading. Sending, editing, deleting and reacting show at
 * once and roll back with a toast that says why if the server refuses.
 */
export function ConversationScreen({
  viewer,
  initialConversation,
  initialWindow,
  initialAgents,
}: {
  viewer: Viewer;
  initialConversation: ConversationView;
  initialWindow: MessageWindow;
  initialAgents: AgentView[];
}) {
  const { t } = useI18n();
  const id = initialConversation.id;
  useLiveUpdates(viewer.workspaceId);

  const conversation = useQuery({ queryKey: conversationKey(id), queryFn: () => fetchConversation(id), initialData: initialConversation }).data;
  const agents = useQuery({
    queryKey: agentsKey(viewer.workspaceId),
    queryFn: () => fetchAgents(viewer.workspaceId),
    initialData: initialAgents,
    refetchInterval: PRESENCE_REFRESH_MS,
  }).data;
  const { key, messages, hasOlder, loadEarlier } = useMessageWindow(id, initialWindow);
  const mutations = useMessageMutations({ conversation, viewerId: viewer.id, windowKey: key, onSend: followNewest });
  const { scroller, list, atBottom, onScroll, scrollToBottom, keepPlace, stickToBottom } = useScrollPinning(messages, mutations.pending.length, reachedBottom);
  const { announcement, newBelow, clearNewBelow } = useNewMessageNotices(messages, viewer.id, atBottom);
  const markSeen = useReadMarks({ conversationId: id, workspaceId: viewer.workspaceId, joined: conversation.joined, messages, atBottom });
  // Functions, so the hooks above can take them: they run only after render (a send starting, the
  // view reaching its end), when everything they call is declared.
  function followNewest() {
    stickToBottom();
  }
  function reachedBottom() {
    clearNewBelow();
    markSeen();
  }

  const [editingId, setEditingId] = useState<string | null>(null);
  const actions = useRef<MessageActionsSheetHandle>(null);
  const handlers: MessageHandlers = {
    onActions: (message, trigger) => actions.current!.open(message, trigger),
    onReact: mutations.react,
    onEdit(message, body) {
      setEditingId(null);
      mutations.edit(message, body);
    },
  };

  const title = conversationTitle(conversation, viewer.id, t);
  const agentMembers = conversation.members.filter((m) => m.kind === 'agent');
  const online = new Map(agents.map((a) => [a.id, a.online]));
  const people = conversation.members.filter((m) => m.kind === 'person').length;
  const mentionable = conversation.members.filter((m) => m.id !== viewer.id);

  return (
    // Exactly the space between the top bar and the tab bar (phones) or the viewport's edges (desktop):
    // the messages scroll inside, the composer stays put. The negative margin takes back <main>'s
    // bottom padding beyond the tab bar's height.
    <div className="-mb-8 flex h-[calc(100dvh-9.5rem-env(safe-area-inset-bottom))] flex-col lg:h-[calc(100dvh-3.5rem)]">
      <header className="flex shrink-0 items-center gap-1 border-b border-line pb-3">
        <Link
          href={`/w/${viewer.workspaceId}/chat`}
          aria-label={t('chat.backToList')}
          className="-ml-3 inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-accent-ink hover:bg-subtle"
        >
          <ChevronLeftIcon size={22} />
        </Link>
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-lg leading-tight font-bold">{title}</h1>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-0.5 text-sm text-muted">
            {conversation.kind === 'delegation' && conversation.parentConversationId && (
              <Link href={`/w/${viewer.workspaceId}/chat/${conversation.parentConversationId}`} className="font-medium text-accent-ink underline underline-offset-2">
                {conversation.resolutionMessageId ? t('chat.delegationDone') : t('chat.delegationOpen')}
              </Link>
            )}
            {agentMembers.map((a) => (
              <span key={a.id} className="inline-flex items-center gap-1.5">
                {/* In a DM with one agent the title already names it. */}
                {!(conversation.kind === 'dm' && agentMembers.length === 1) && <span>{a.name}</span>}
                <Presence online={online.get(a.id) ?? false} t={t} />
                {conversation.kind === 'dm' && agentMembers.length === 1 && (
                  <Link href={`/w/${viewer.workspaceId}/settings/agents/${a.id}`} className="font-medium text-accent-ink underline underline-offset-2">
                    {t('chat.aboutAgent', { name: a.name })}
                  </Link>
                )}
              </span>
            ))}
            {conversation.kind !== 'dm' && <span>{t('chat.people', { count: people })}</span>}
          </p>
        </div>
      </header>

      <div className="relative min-h-0 flex-1">
        <div ref={scroller} onScroll={onScroll} className="h-full overflow-x-hidden overflow-y-auto overscroll-contain [overflow-anchor:none]">
          {hasOlder && (
            <div className="flex justify-center pt-3">
              <Button
                variant="ghost"
                onClick={() => {
                  keepPlace();
                  loadEarlier();
                }}
              >
                {t('chat.loadEarlier')}
              </Button>
            </div>
          )}
          {messages.length === 0 && mutations.pending.length === 0 && <p className="py-10 text-center text-[0.9375rem] text-muted">{t('chat.noMessages')}</p>}
          <ol ref={list} aria-label={t('chat.messagesOf', { title })} className="flex flex-col pb-2">
            {messages.map((message) => (
              <MessageItem
                key={message.id}
                message={message}
                editing={editingId === message.id}
                onStopEditing={() => setEditingId(null)}
                handlers={handlers}
              />
            ))}
            {mutations.pending.map((message) => (
              <MessageItem key={message.id} message={message} pending editing={false} onStopEditing={() => {}} handlers={handlers} />
            ))}
          </ol>
        </div>
        {newBelow > 0 && (
          <button
            type="button"
            onClick={scrollToBottom}
            className="absolute bottom-3 left-1/2 inline-flex min-h-11 -translate-x-1/2 items-center rounded-full bg-accent px-4 text-sm font-semibold text-on-accent shadow-card"
          >
            {t('chat.newBelow', { count: newBelow })}
          </button>
        )}
      </div>

      {conversation.agentsPaused && (
        <p role="status" className="shrink-0 rounded-xl border border-line bg-subtle px-3 py-2 text-sm">
          {t('chat.agentsPaused')}
        </p>
      )}
      <div className="shrink-0 pb-3">
        <Composer
          label={t(conversation.kind === 'dm' ? 'chat.writeToDm' : 'chat.writeTo', { title })}
          members={mentionable}
          onSend={mutations.send}
        />
      </div>
      <div aria-live="polite" className="sr-only">
        {announcement}
      </div>

      <MessageActionsSheet ref={actions} viewerId={viewer.id} onReact={mutations.react} onEdit={(message) => setEditingId(message.id)} onDelete={mutations.remove} />
    </div>
  );
}
