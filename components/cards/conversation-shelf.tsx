'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/components/api/client';
import { BubblesArt } from '@/components/ui/art';
import { EmptyState } from '@/components/ui/empty-state';
import type { Wire } from '@/lib/api';
import type { CardMessage } from '@/lib/cards';
import { formatRelative } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import { MessageAttachments } from './message-attachments';

export type CardMessageView = Wire<CardMessage>;

/**
 * A conversation's cards and artifacts, kept live: the workspace's event stream says which message
 * changed (a click's outcome, a new card) and the list is read again.
 */
export function ConversationShelf({ workspaceId, conversationId, initial }: { workspaceId: string; conversationId: string; initial: CardMessageView[] }) {
  const { locale, t } = useI18n();
  const queryClient = useQueryClient();
  const key = ['cards', conversationId];
  const messages = useQuery({ queryKey: key, queryFn: () => api<CardMessageView[]>(`/api/cards?conversationId=${conversationId}`), initialData: initial });

  useEffect(() => {
    const events = new EventSource(`/api/events?workspaceId=${workspaceId}`);
    const refresh = (event: MessageEvent<string>) => {
      if ((JSON.parse(event.data) as { conversationId?: string }).conversationId === conversationId) void queryClient.invalidateQueries({ queryKey: ['cards', conversationId] });
    };
    events.addEventListener('message', refresh);
    return () => events.close();
  }, [workspaceId, conversationId, queryClient]);

  if (messages.data.length === 0) return <EmptyState art={<BubblesArt />} title={t('artifacts.conversationEmpty')} body={t('artifacts.conversationEmptyBody')} />;
  return (
    <ol className="flex flex-col gap-6">
      {messages.data.map((m) => (
        <li key={m.id} className="flex flex-col gap-1">
          <p className="text-sm text-muted" suppressHydrationWarning>
            <span className="font-semibold text-ink">{m.author.name}</span> · {formatRelative(m.createdAt, locale)}
          </p>
          {m.body && <p className="text-[0.9375rem]">{m.body}</p>}
          <MessageAttachments message={m} />
        </li>
      ))}
    </ol>
  );
}
