'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '@/components/api/client';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';
import { conversationKey, messagesKey, type MessageWindow } from './queries';
import type { ConversationView, MessageView } from './types';

/**
 * Sending, editing, deleting and reacting: each shows at once (a sent message as `pending` until the
 * server has it, the others in the cached `windowKey`) and rolls back with a toast that says why if
 * the server refuses. `onSend` runs as a message starts sending.
 */
export function useMessageMutations({
  conversation,
  viewerId,
  windowKey,
  onSend,
}: {
  conversation: ConversationView;
  viewerId: string;
  windowKey: readonly unknown[];
  onSend: () => void;
}) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const id = conversation.id;
  const [pending, setPending] = useState<MessageView[]>([]);

  /** Applies a change to the cached messages now; returns how to undo it. */
  async function optimistic(change: (m: MessageView) => MessageView) {
    await queryClient.cancelQueries({ queryKey: windowKey });
    const previous = queryClient.getQueryData<MessageWindow>(windowKey);
    queryClient.setQueryData<MessageWindow>(windowKey, (w) => w && { ...w, messages: w.messages.map(change) });
    return () => queryClient.setQueryData(windowKey, previous);
  }
  const refetch = () => queryClient.invalidateQueries({ queryKey: messagesKey(id) });
  const failed = (what: 'chat.sendFailed' | 'chat.editFailed' | 'chat.deleteFailed' | 'chat.reactFailed') => (error: unknown) =>
    toast(t(what, { reason: errorText(error, t) }), 'error');

  const me = conversation.members.find((m) => m.id === viewerId);
  const send = useMutation({
    mutationFn: ({ body }: { body: string; tempId: string }) => api(`/api/conversations/${id}/messages`, { body: { body } }),
    onMutate: ({ body, tempId }) => {
      onSend();
      setPending((all) => [...all, placeholder(tempId, id, body, viewerId, me?.name ?? t('chat.you'))]);
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

  return {
    pending,
    /** Resolves whether the server took the message (if not, the composer gives the text back). */
    send: (body: string) => send.mutateAsync({ body, tempId: `pending-${crypto.randomUUID()}` }).then(
      () => true,
      () => false,
    ),
    edit: (message: MessageView, body: string) => edit.mutate({ message, body }),
    remove: (message: MessageView) => remove.mutate(message),
    react: (message: MessageView, emoji: string, mine: boolean) => react.mutate({ message, emoji, mine }),
  };
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
