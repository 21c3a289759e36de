'use client';

import { useImperativeHandle, useRef, useState, type Ref } from 'react';
import { Button } from '@/components/ui/button';
import { useI18n } from '@/lib/i18n/client';
import type { MessageView } from './types';

const QUICK_REACTIONS = ['👍', '❤️', '😂', '🎉', '👀', '✅'];

export interface MessageActionsSheetHandle {
  /** Shows the sheet for `message`; focus goes back to `trigger` when it closes. */
  open: (message: MessageView, trigger: HTMLButtonElement) => void;
}

/**
 * What you can do with one message: react with a quick emoji, and with your own, edit or delete it
 * (after a confirmation). One popover serves every message: a sheet above the tab bar on phones,
 * next to the message's button on wide screens.
 */
export function MessageActionsSheet({
  ref,
  viewerId,
  onReact,
  onEdit,
  onDelete,
}: {
  ref: Ref<MessageActionsSheetHandle>;
  viewerId: string;
  onReact: (message: MessageView, emoji: string, mine: boolean) => void;
  onEdit: (message: MessageView) => void;
  onDelete: (message: MessageView) => void;
}) {
  const { t } = useI18n();
  const sheet = useRef<HTMLDivElement>(null);
  const [target, setTarget] = useState<{ message: MessageView; trigger: HTMLButtonElement } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const returnFocus = useRef(true);
  useImperativeHandle(ref, () => ({
    open(message, trigger) {
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
  }), []);
  const close = (focusTrigger = true) => {
    returnFocus.current = focusTrigger;
    sheet.current?.hidePopover();
  };

  const own = target?.message.author.kind === 'person' && target.message.author.id === viewerId;
  const reactedWith = new Set(target?.message.reactions.filter((r) => r.mine).map((r) => r.emoji));

  return (
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
                  onReact(target.message, emoji, reactedWith.has(emoji));
                  close();
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
                      onDelete(target.message);
                      close();
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
                    onEdit(target.message);
                    close(false);
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
  );
}
