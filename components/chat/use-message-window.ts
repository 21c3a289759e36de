'use client';

import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { PAGE, fetchLatestMessages, messagesKey, type MessageWindow } from './queries';

/**
 * The latest messages of a conversation, oldest first: the page the server rendered, refetched as
 * new ones arrive, and a page more each time `loadEarlier` is called. `key` is the cache entry on
 * screen, the one optimistic changes edit.
 */
export function useMessageWindow(conversationId: string, initialWindow: MessageWindow) {
  const queryClient = useQueryClient();
  const [count, setCount] = useState(PAGE);
  const key = messagesKey(conversationId, count);
  const page = useQuery({
    queryKey: key,
    // A refetch (new messages arrived) keeps every message already shown: nothing drops off the top.
    queryFn: () => fetchLatestMessages(conversationId, count, queryClient.getQueryData<MessageWindow>(key)?.messages[0]?.seq),
    initialData: count === PAGE ? initialWindow : undefined,
    placeholderData: keepPreviousData,
  }).data;
  const messages = useMemo(() => page?.messages ?? [], [page]);
  return {
    key,
    messages,
    hasOlder: page?.hasOlder ?? false,
    // The window may have grown past `count` with live messages: earlier is more than what is shown.
    loadEarlier: () => setCount(messages.length + PAGE),
  };
}
