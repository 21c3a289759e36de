'use client';

import { useState, type FormEvent } from 'react';
import { MessageAttachments } from '@/components/cards/message-attachments';
import { Button } from '@/components/ui/button';
import { formatDateTime, formatRelative, type Translate } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import { Markdown } from '@/components/markdown';
import { Avatar } from './parts';
import { ThreadCard } from './thread-card';
import type { MessageView } from './types';

export interface MessageHandlers {
  /** Opens the actions sheet (reactions, edit, delete) for this message, anchored to `trigger`. */
  onActions: (message: MessageView, trigger: HTMLButtonElement) => void;
  onReact: (message: MessageView, emoji: string, mine: boolean) => void;
  onEdit: (message: MessageView, body: string) => void;
}

/**
 * One message: who wrote it and when, its text (safe markdown), the cards and artifacts it carries,
 * its reactions, and the side threads it opened as cards underneath. A message still being sent
 * shows dimmed; one being edited turns into a small form in place.
 */
export function MessageItem({
  message,
  pending = false,
  editing,
  onStopEditing,
  handlers,
}: {
  message: MessageView;
  pending?: boolean;
  editing: boolean;
  onStopEditing: () => void;
  handlers: MessageHandlers;
}) {
  const { t, locale } = useI18n();
  const deleted = Boolean(message.deletedAt);
  const via = viaLabel(message, t);

  return (
    <li className={`flex gap-3 py-2.5 ${pending ? 'opacity-60' : ''}`} aria-busy={pending || undefined}>
      <Avatar name={message.author.name} kind={message.author.kind} />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-2 leading-tight">
          <span className="font-semibold">{message.author.name}</span>
          {message.author.kind === 'agent' && <span className="rounded bg-accent-soft px-1.5 text-xs font-semibold text-accent-ink">{t('chat.agent')}</span>}
          <time className="text-xs text-muted" dateTime={message.createdAt} title={formatDateTime(message.createdAt, locale)} suppressHydrationWarning>
            {pending ? t('chat.sending') : formatRelative(message.createdAt, locale)}
          </time>
          {message.editedAt && !deleted && <span className="text-xs text-muted">{t('chat.edited')}</span>}
          {via && <span className="text-xs text-muted">{via}</span>}
        </p>
        <div className="mt-1 text-[0.9375rem] leading-relaxed">
          {deleted ? (
            <p className="text-muted italic">{t('chat.deleted')}</p>
          ) : editing ? (
            <EditForm message={message} onSave={(body) => handlers.onEdit(message, body)} onCancel={onStopEditing} />
          ) : (
            <Markdown variant="chat" source={message.body} mentions={message.mentions.map((m) => m.name)} />
          )}
        </div>
        {message.payload.resolvesThread && <p className="mt-1 text-xs text-muted">{t('chat.threadSummary')}</p>}
        {!deleted && <MessageAttachments message={message} />}
        {message.reactions.length > 0 && (
          <ul className="mt-1.5 flex flex-wrap gap-1.5" aria-label={t('chat.reactions')}>
            {message.reactions.map((r) => (
              <li key={r.emoji}>
                <button
                  type="button"
                  aria-pressed={r.mine}
                  aria-label={t('chat.reactionLabel', { emoji: r.emoji, count: r.count })}
                  onClick={() => handlers.onReact(message, r.emoji, r.mine)}
                  className={`inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-full border px-2.5 text-sm pointer-fine:min-h-8 pointer-fine:min-w-8 ${
                    r.mine ? 'border-accent bg-accent-soft text-accent-ink' : 'border-line bg-surface hover:bg-subtle'
                  }`}
                >
                  <span aria-hidden>{r.emoji}</span>
                  <span aria-hidden className="font-semibold">
                    {r.count}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {message.sideThreads.map((thread) => (
          <ThreadCard key={thread.id} threadId={thread.id} status={thread.status} />
        ))}
      </div>
      {!pending && !deleted && (
        <button
          type="button"
          aria-label={t('chat.actionsFor', { name: message.author.name })}
          aria-haspopup="dialog"
          onClick={(event) => handlers.onActions(message, event.currentTarget)}
          className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-muted hover:bg-subtle"
        >
          <svg aria-hidden width="20" height="20" viewBox="0 0 24 24" fill="currentColor">
            <circle cx="5" cy="12" r="1.6" />
            <circle cx="12" cy="12" r="1.6" />
            <circle cx="19" cy="12" r="1.6" />
          </svg>
        </button>
      )}
    </li>
  );
}

function EditForm({ message, onSave, onCancel }: { message: MessageView; onSave: (body: string) => void; onCancel: () => void }) {
  const { t } = useI18n();
  const [body, setBody] = useState(message.body);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (body.trim() && body.trim() !== message.body) onSave(body.trim());
    else onCancel();
  }
  return (
    <form onSubmit={submit} className="flex flex-col gap-2">
      <textarea
        aria-label={t('chat.editLabel')}
        value={body}
        onChange={(event) => setBody(event.target.value)}
        onKeyDown={(event) => event.key === 'Escape' && onCancel()}
        rows={3}
        autoFocus
        className="rounded-xl border border-line-strong bg-surface px-3 py-2 text-base text-ink"
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit">{t('chat.saveEdit')}</Button>
        <Button variant="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}

/** Who wrote the message on its author's behalf: software through MCP ("via MCP · key") or a routine. */
function viaLabel(message: MessageView, t: Translate): string | undefined {
  const via = message.payload.via as { kind: string; keyName?: string; routineName?: string } | undefined;
  if (via?.kind === 'mcp') return t('chat.viaMcp', { key: via.keyName ?? '' });
  if (via?.kind === 'routine') return t('chat.viaRoutine', { name: via.routineName ?? '' });
  return undefined;
}
