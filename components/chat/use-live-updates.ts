'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { agentsKey, conversationKey, conversationsKey, messagesKey } from './queries';

/**
 * Keeps the chat caches live: the workspace's event stream (SSE) says which conversation changed,
 * and the queries showing it refetch through the API. Events carry ids only, never content. Each
 * time the stream is ready — when a page opens it, and after it drops and the browser reconnects —
 * the chat queries refetch once: whatever changed between a page's data and its stream being ready
 * (a reply landing while you navigate to the list) would otherwise never show.
 */
export function useLiveUpdates(workspaceId: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const source = new EventSource(`/api/events?workspaceId=${workspaceId}`);
    const refresh = (conversationId: string, kind: 'message' | 'conversation') => {
      void queryClient.invalidateQueries({ queryKey: conversationsKey(workspaceId) });
      void queryClient.invalidateQueries({ queryKey: conversationKey(conversationId) });
      // A side thread's status shows on the message that opened it: any open conversation may care.
      void queryClient.invalidateQueries({ queryKey: kind === 'message' ? messagesKey(conversationId) : ['chat', 'messages'] });
      // An agent that just wrote is connected: its presence may have changed.
      if (kind === 'message') void queryClient.invalidateQueries({ queryKey: agentsKey(workspaceId) });
    };
    const onEvent = (kind: 'message' | 'conversation') => (event: MessageEvent<string>) => {
      try {
        refresh((JSON.parse(event.data) as { conversationId: string }).conversationId, kind);
      } catch {
        // not an event of ours
      }
    };
    source.addEventListener('message', onEvent('message'));
    source.addEventListener('conversation', onEvent('conversation'));
    source.addEventListener('ready', () => void queryClient.invalidateQueries({ queryKey: ['chat'] }));
    return () => source.close();
  }, [queryClient, workspaceId]);
}
