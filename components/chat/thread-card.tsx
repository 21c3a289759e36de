'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, errorText } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { ChevronRightIcon } from '@/components/ui/icons';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';
import { Markdown } from '@/components/markdown';
import { Avatar, ThreadStatusBadge } from './parts';
import { conversationKey, fetchConversation, fetchLatestMessages, messagesKey, PAGE } from './queries';
import type { ThreadStatus } from './types';

/**
 * A side thread, as a compact card under the message that opened it: its status (open, resolved,
 * abandoned) at a glance; expanded, who is in it and what they said, and — while it is open — a way
 * for any participant to resolve it with a summary that is posted back here. Expanded contents
 * update live like the conversation itself.
 */
export function ThreadCard({ threadId, status }: { threadId: string; status: ThreadStatus }) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const regionId = useId();
  const [open, setOpen] = useState(false);
  const [resolving, setResolving] = useState(false);
  const thread = useQuery({ queryKey: conversationKey(threadId), queryFn: () => fetchConversation(threadId), enabled: open });
  const messages = useQuery({ queryKey: messagesKey(threadId, PAGE), queryFn: () => fetchLatestMessages(threadId, PAGE), enabled: open });
  const names = thread.data?.members.map((m) => m.name) ?? [];

  const resolve = useMutation({
    mutationFn: (summary: string) => api(`/api/conversations/${threadId}/resolve`, { body: { summary } }),
    onSuccess: () => {
      setResolving(false);
      void queryClient.invalidateQueries({ queryKey: ['chat'] });
    },
    onError: (error) => toast(t('chat.resolveFailed', { reason: errorText(error, t) }), 'error'),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const summary = String(new FormData(event.currentTarget).get('summary') ?? '').trim();
    if (summary) resolve.mutate(summary);
  }

  return (
    <div className="mt-2 rounded-xl border border-line bg-surface">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={regionId}
        onClick={() => setOpen(!open)}
        className="flex min-h-11 w-full items-center gap-2 rounded-xl px-3 py-1.5 text-left text-sm hover:bg-subtle"
      >
        <ChevronRightIcon className={`shrink-0 text-muted transition-transform ${open ? 'rotate-90' : ''}`} />
        <span className="flex min-w-0 flex-1 flex-col leading-tight">
          <span className="font-semibold whitespace-nowrap">{t('chat.sideThread')}</span>
          {names.length > 0 && <span className="truncate text-xs text-muted">{names.join(' ↔ ')}</span>}
        </span>
        <ThreadStatusBadge status={status} t={t} />
      </button>
      {open && (
        <div id={regionId} className="flex flex-col gap-3 border-t border-line px-3 py-3">
          {messages.isPending ? (
            <p className="text-sm text-muted">{t('chat.loading')}</p>
          ) : messages.isError ? (
            <p className="text-sm text-muted">{errorText(messages.error, t)}</p>
          ) : (
            <ol className="flex flex-col gap-3" aria-label={t('chat.threadMessages')}>
              {messages.data.messages.map((m) => (
                <li key={m.id} className="flex gap-2 text-sm">
                  <Avatar name={m.author.name} kind={m.author.kind} small />
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold">{m.author.name}</p>
                    {m.deletedAt ? <p className="text-muted italic">{t('chat.deleted')}</p> : <Markdown variant="chat" source={m.body} mentions={m.mentions.map((x) => x.name)} />}
                  </div>
                </li>
              ))}
            </ol>
          )}
          {status === 'open' &&
            (resolving ? (
              <form onSubmit={submit} className="flex flex-col gap-2">
                <label htmlFor={`${regionId}-summary`} className="text-sm font-semibold">
                  {t('chat.resolveSummary')}
                </label>
                <textarea
                  id={`${regionId}-summary`}
                  name="summary"
                  required
                  rows={2}
                  autoFocus
                  className="rounded-xl border border-line-strong bg-surface px-3 py-2 text-base text-ink"
                />
                <div className="flex flex-wrap gap-2">
                  <Button type="submit" pending={resolve.isPending} pendingLabel={t('chat.resolving')}>
                    {t('chat.resolve')}
                  </Button>
                  <Button variant="ghost" onClick={() => setResolving(false)}>
                    {t('common.cancel')}
                  </Button>
                </div>
              </form>
            ) : (
              <Button variant="secondary" className="self-start" onClick={() => setResolving(true)}>
                {t('chat.resolve')}
              </Button>
            ))}
        </div>
      )}
    </div>
  );
}
