'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { api } from '@/components/api/client';
import { conversationsKey } from './queries';
import type { MessageView } from './types';

/**
 * Seen means shown at the bottom of a visible page: when it arrives there, when you scroll down to
 * it, or when you come back to the tab. Then it is marked read, so the list's unread count goes.
 * Returns `markSeen`, for the moments the view reaches the bottom.
 */
export function useReadMarks({
  conversationId,
  workspaceId,
  joined,
  messages,
  atBottom,
}: {
  conversationId: string;
  /** The workspace whose conversation list shows the unread count. */
  workspaceId: string;
  joined: boolean;
  messages: MessageView[];
  atBottom: RefObject<boolean>;
}) {
  const queryClient = useQueryClient();
  const lastRead = useRef(0);
  const newestSeq = messages.at(-1)?.seq ?? 0;
  const markSeen = useCallback(() => {
    if (!joined || newestSeq <= lastRead.current || !atBottom.current || document.visibilityState !== 'visible') return;
    lastRead.current = newestSeq;
    api(`/api/conversations/${conversationId}/read`, { body: { seq: newestSeq } })
      .then(() => queryClient.invalidateQueries({ queryKey: conversationsKey(workspaceId) }))
      .catch(() => {});
  }, [joined, newestSeq, atBottom, conversationId, queryClient, workspaceId]);
  useEffect(() => {
    markSeen();
    document.addEventListener('visibilitychange', markSeen);
    return () => document.removeEventListener('visibilitychange', markSeen);
  }, [markSeen]);
  return markSeen;
}
