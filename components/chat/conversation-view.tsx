'use client';

import Link from 'next/link';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { api, errorText } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { ChevronLeftIcon } from '@/components/ui/icons';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';
import { Composer } from './composer';
import { PRESENCE_REFRESH_MS } from './conversation-list';
import { MessageItem, type MessageHandlers } from './message-item';
import { Presence, conversationTitle } from './parts';
import {
  PAGE,
  agentsKey,
  conversationKey,
  conversationsKey,
  fetchAgents,
  fetchConversation,
  fetchLatestMessages,
  messagesKey,
  type MessageWindow,
} from './queries';
import type { AgentView, ConversationView, MessageView, Viewer } from './types';
import { useLiveUpdates } from './use-live-updates';

const QUICK_REACTIONS = ['👍', '❤️', '😂', '🎉', '👀', '✅'];
/** Within this many pixels of the end counts as "at the bottom": new messages keep it pinned there. */
const BOTTOM_SLACK = 48;

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
  const toast = useToast();
  const queryClient = useQueryClient();
  const id = initialConversation.id;
  useLiveUpdates(viewer.workspaceId);

  const conversation = useQuery({ queryKey: conversationKey(id), queryFn: () => fetchConversation(id), initialData: initialConversation }).data;
  const agents = useQuery({
    queryKey: agentsKey(viewer.workspaceId),
    queryFn: () => fetchAgents(viewer.workspaceId),
    initialData: initialAgents,
    refetchInterval: PRESENCE_REFRESH_MS,
  }).data;
  const [count, setCount] = useState(PAGE);
  const key = messagesKey(id, count);
  const page = useQuery({
    queryKey: key,
    // A refetch (new messages arrived) keeps every message already shown: nothing drops off the top.
    queryFn: () => fetchLatestMessages(id, count, queryClient.getQueryData<MessageWindow>(key)?.messages[0]?.seq),
    initialData: count === PAGE ? initialWindow : undefined,
    placeholderData: keepPreviousData,
  }).data;
  const messages = useMemo(() => page?.messages ?? [], [page]);

  const [pending, setPending] = useState<MessageView[]>([]);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [newBelow, setNewBelow] = useState(0);

  const scroller = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const atBottom = useRef(true);
  /** Distance from the end to restore after earlier messages are added on top. */
  const restoreFrom = useRef<number | null>(null);
  /**
   * Where the view was when we last looked. The browser reports a scroll a frame later, so new
   * messages rendered in between would find `atBottom` stale; a scroll position that differs from
   * this one is such an unreported scroll, judged against the content as it was.
   */
  const known = useRef({ top: 0, height: 0 });
  const remember = (el: HTMLDivElement) => {
    known.current = { top: el.scrollTop, height: el.scrollHeight };
  };

  function onScroll() {
    const el = scroller.current!;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK;
    remember(el);
    if (atBottom.current) {
      setNewBelow(0);
      markSeen();
    }
  }
  function scrollToBottom() {
    const el = scroller.current!;
    el.scrollTop = el.scrollHeight;
    atBottom.current = true;
    remember(el);
    setNewBelow(0);
    markSeen();
  }

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (el.scrollTop !== known.current.top) atBottom.current = known.current.height - el.scrollTop - el.clientHeight < BOTTOM_SLACK;
    if (restoreFrom.current !== null) {
      el.scrollTop = el.scrollHeight - restoreFrom.current;
      restoreFrom.current = null;
    } else if (atBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
    remember(el);
  }, [messages, pending.length]);

  // Content that grows after rendering (an expanded thread, a card's image) keeps a pinned view pinned.
  useEffect(() => {
    const el = scroller.current;
    if (!el || !list.current) return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(list.current);
    return () => observer.disconnect();
  }, []);

  // New messages from others: announced, and counted when they land out of sight.
  const lastSeen = useRef<number | null>(null);
  useEffect(() => {
    const newest = messages.at(-1)?.seq ?? 0;
    if (lastSeen.current === null) {
      lastSeen.current = newest;
      return;
    }
    const fresh = messages.filter((m) => m.seq > lastSeen.current! && m.author.id !== viewer.id && !m.deletedAt);
    lastSeen.current = Math.max(lastSeen.current, newest);
    if (fresh.length === 0) return;
    const last = fresh.at(-1)!;
    setAnnouncement(
      fresh.length === 1 ? t('chat.announceOne', { name: last.author.name, text: last.body.slice(0, 160) }) : t('chat.announceMany', { count: fresh.length }),
    );
    if (!atBottom.current) setNewBelow((n) => n + fresh.length);
  }, [messages, t, viewer.id]);

  // Seen means shown at the bottom of a visible page: when it arrives there, when you scroll down to
  // it, or when you come back to the tab. Then it is marked read, so the list's unread count goes.
  const lastRead = useRef(0);
  const newestSeq = messages.at(-1)?.seq ?? 0;
  const markSeen = useCallback(() => {
    if (!conversation.joined || newestSeq <= lastRead.current || !atBottom.current || document.visibilityState !== 'visible') return;
    lastRead.current = newestSeq;
    api(`/api/conversations/${id}/read`, { body: { seq: newestSeq } })
      .then(() => queryClient.invalidateQueries({ queryKey: conversationsKey(viewer.workspaceId) }))
      .catch(() => {});
  }, [conversation.joined, newestSeq, id, queryClient, viewer.workspaceId]);
  useEffect(() => {
    markSeen();
    document.addEventListener('visibilitychange', markSeen);
    return () => document.removeEventListener('visibilitychange', markSeen);
  }, [markSeen]);

  /** Applies a change to the cached messages now; returns how to undo it. */
  async function optimistic(change: (m: MessageView) => MessageView) {
    await queryClient.cancelQueries({ queryKey: key });
    const previous = queryClient.getQueryData<MessageWindow>(key);
    queryClient.setQueryData<MessageWindow>(key, (w) => w && { ...w, messages: w.messages.map(change) });
    return () => queryClient.setQueryData(key, previous);
  }
  const refetch = () => queryClient.invalidateQueries({ queryKey: messagesKey(id) });
  const failed = (what: 'chat.sendFailed' | 'chat.editFailed' | 'chat.deleteFailed' | 'chat.reactFailed') => (error: unknown) =>
    toast(t(what, { reason: errorText(error, t) }), 'error');

  const me = conversation.members.find((m) => m.id === viewer.id);
  const send = useMutation({
    mutationFn: ({ body }: { body: string; tempId: string }) => api(`/api/conversations/${id}/messages`, { body: { body } }),
    onMutate: ({ body, tempId }) => {
      atBottom.current = true;
      setPending((all) => [...all, placeholder(tempId, id, body, viewer.id, me?.name ?? t('chat.you'))]);
    },
    onSuccess: async () => {
      await refetch();
      void queryClient.invalidateQueries({ queryKey: conversationKey(id) });
    },
    onError: failed('chat.sendFailed'),
    onSettled: (_data, _error, { tempId }) => setPending((all) => all.filter((m) => m.id !== tempId)),
  });

  const edit = useMutation({
    mutationFn: ({ message, body }: { message: MessageView; body: string }) =>
      api(`/api/conversations/${id}/messages/${message.id}`, { method: 'PATCH', body: { body } }),
    onMutate: ({ message, body }) => optimistic((m) => (m.id === message.id ? { ...m, body, editedAt: new Date().toISOString() } : m)),
    onError: (error, _vars, undo) => {
      undo?.();
      failed('chat.editFailed')(error);
    },
    onSettled: refetch,
  });

  const remove = useMutation({
    mutationFn: (message: MessageView) => api(`/api/conversations/${id}/messages/${message.id}`, { method: 'DELETE' }),
    onMutate: (message) => optimistic((m) => (m.id === message.id ? { ...m, body: '', deletedAt: new Date().toISOString() } : m)),
    onError: (error, _vars, undo) => {
      undo?.();
      failed('chat.deleteFailed')(error);
    },
    onSettled: refetch,
  });

  const react = useMutation({
    mutationFn: ({ message, emoji, mine }: { message: MessageView; emoji: string; mine: boolean }) =>
      mine
        ? api(`/api/conversations/${id}/messages/${message.id}/reactions?emoji=${encodeURIComponent(emoji)}`, { method: 'DELETE' })
        : api(`/api/conversations/${id}/messages/${message.id}/reactions`, { body: { emoji } }),
    onMutate: ({ message, emoji, mine }) => optimistic((m) => (m.id === message.id ? { ...m, reactions: toggled(m.reactions, emoji, mine) } : m)),
    onError: (error, _vars, undo) => {
      undo?.();
      failed('chat.reactFailed')(error);
    },
    onSettled: refetch,
  });

  // The actions sheet: one popover for every message, opened next to the message's button.
  const sheet = useRef<HTMLDivElement>(null);
  const [target, setTarget] = useState<{ message: MessageView; trigger: HTMLButtonElement } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const returnFocus = useRef(true);
  const handlers: MessageHandlers = {
    onActions(message, trigger) {
      setTarget({ message, trigger });
      setConfirmDelete(false);
      returnFocus.current = true;
      const el = sheet.current!;
      // Phones: a sheet above the tab bar (CSS). Wide screens: next to the button.
      if (globalThis.matchMedia('(min-width: 1024px)').matches) {
        const rect = trigger.getBoundingClientRect();
        const top = Math.min(rect.bottom + 4, globalThis.innerHeight - 260);
        Object.assign(el.style, { top: `${top}px`, left: `${Math.max(8, rect.right - 300)}px`, right: 'auto', bottom: 'auto', width: '300px' });
      } else {
        el.removeAttribute('style');
      }
      el.showPopover();
      requestAnimationFrame(() => el.querySelector<HTMLButtonElement>('button')?.focus());
    },
    onReact: (message, emoji, mine) => react.mutate({ message, emoji, mine }),
    onEdit(message, body) {
      setEditingId(null);
      edit.mutate({ message, body });
    },
  };
  const closeSheet = (focusTrigger = true) => {
    returnFocus.current = focusTrigger;
    sheet.current?.hidePopover();
  };

  const title = conversationTitle(conversation, viewer.id, t);
  const agentMembers = conversation.members.filter((m) => m.kind === 'agent');
  const online = new Map(agents.map((a) => [a.id, a.online]));
  const people = conversation.members.filter((m) => m.kind === 'person').length;
  const mentionable = conversation.members.filter((m) => m.id !== viewer.id);
  const own = target?.message.author.kind === 'person' && target.message.author.id === viewer.id;
  const reactedWith = new Set(target?.message.reactions.filter((r) => r.mine).map((r) => r.emoji));

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
              </span>
            ))}
            {conversation.kind !== 'dm' && <span>{t('chat.people', { count: people })}</span>}
          </p>
        </div>
      </header>

      <div className="relative min-h-0 flex-1">
        <div ref={scroller} onScroll={onScroll} className="h-full overflow-x-hidden overflow-y-auto overscroll-contain [overflow-anchor:none]">
          {page?.hasOlder && (
            <div className="flex justify-center pt-3">
              <Button
                variant="ghost"
                onClick={() => {
                  const el = scroller.current!;
                  restoreFrom.current = el.scrollHeight - el.scrollTop;
                  // The window may have grown past `count` with live messages: earlier is more than what is shown.
                  setCount(messages.length + PAGE);
                }}
              >
                {t('chat.loadEarlier')}
              </Button>
            </div>
          )}
          {messages.length === 0 && pending.length === 0 && <p className="py-10 text-center text-[0.9375rem] text-muted">{t('chat.noMessages')}</p>}
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
            {pending.map((message) => (
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
          onSend={(body) => send.mutateAsync({ body, tempId: `pending-${crypto.randomUUID()}` }).then(
            () => true,
            () => false,
          )}
        />
      </div>
      <div aria-live="polite" className="sr-only">
        {announcement}
      </div>

      <div
        ref={sheet}
        popover="auto"
        role="dialog"
        aria-label={t('chat.messageActions')}
        onToggle={(event) => {
          if ((event as unknown as { newState: string }).newState === 'closed' && returnFocus.current) target?.trigger.focus();
        }}
        className="fixed inset-x-3 top-auto bottom-[calc(5rem+env(safe-area-inset-bottom))] m-0 w-auto rounded-2xl border border-line bg-surface p-3 text-ink shadow-card lg:bottom-auto"
      >
        {target && (
          <div className="flex flex-col gap-2">
            <div role="group" aria-label={t('chat.react')} className="grid grid-cols-6 gap-1">
              {QUICK_REACTIONS.map((emoji) => (
                <button
                  key={emoji}
                  type="button"
                  aria-pressed={reactedWith.has(emoji)}
                  aria-label={t('chat.reactWith', { emoji })}
                  onClick={() => {
                    react.mutate({ message: target.message, emoji, mine: reactedWith.has(emoji) });
                    closeSheet();
                  }}
                  className={`inline-flex h-11 items-center justify-center rounded-xl text-xl ${reactedWith.has(emoji) ? 'bg-accent-soft' : 'hover:bg-subtle'}`}
                >
                  {emoji}
                </button>
              ))}
            </div>
            {own &&
              (confirmDelete ? (
                <div role="group" aria-label={t('chat.deleteQuestion')} className="flex flex-col gap-2 border-t border-line pt-2">
                  <p className="text-[0.9375rem] font-medium">{t('chat.deleteQuestion')}</p>
                  <div className="flex gap-2">
                    <Button
                      variant="danger"
                      autoFocus
                      onClick={() => {
                        remove.mutate(target.message);
                        closeSheet();
                      }}
                    >
                      {t('chat.delete')}
                    </Button>
                    <Button variant="ghost" onClick={() => setConfirmDelete(false)}>
                      {t('common.cancel')}
                    </Button>
                  </div>
                </div>
              ) : (
                <div className="flex flex-col border-t border-line pt-2">
                  <button
                    type="button"
                    onClick={() => {
                      setEditingId(target.message.id);
                      closeSheet(false);
                    }}
                    className="flex min-h-11 items-center rounded-lg px-3 text-left font-medium hover:bg-subtle"
                  >
                    {t('chat.edit')}
                  </button>
                  <button
                    type="button"
                    onClick={() => setConfirmDelete(true)}
                    className="flex min-h-11 items-center rounded-lg px-3 text-left font-medium text-danger hover:bg-subtle"
                  >
                    {t('chat.delete')}
                  </button>
                </div>
              ))}
          </div>
        )}
      </div>
    </div>
  );
}

function toggled(reactions: MessageView['reactions'], emoji: string, mine: boolean): MessageView['reactions'] {
  const existing = reactions.find((r) => r.emoji === emoji);
  if (mine) {
    return reactions.flatMap((r) => (r.emoji !== emoji ? [r] : r.count > 1 ? [{ ...r, count: r.count - 1, mine: false }] : []));
  }
  return existing ? reactions.map((r) => (r.emoji === emoji ? { ...r, count: r.count + 1, mine: true } : r)) : [...reactions, { emoji, count: 1, mine: true }];
}

function placeholder(id: string, conversationId: string, body: string, authorId: string, name: string): MessageView {
  return {
    id,
    seq: Number.MAX_SAFE_INTEGER,
    conversationId,
    author: { kind: 'person', id: authorId, name },
    body,
    mentions: [],
    payload: {},
    sideThreads: [],
    reactions: [],
    createdAt: new Date().toISOString(),
    editedAt: null,
    deletedAt: null,
  };
}
