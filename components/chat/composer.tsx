'use client';

import { useId, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useI18n } from '@/lib/i18n/client';
import { Avatar } from './parts';
import type { MemberView } from './types';

interface Mention {
  /** Where the `@` is. */
  start: number;
  query: string;
  active: number;
}

/** The `@…` being typed just before the caret, if any: after a space or at the start, on one line. */
function mentionAt(text: string, caret: number): Omit<Mention, 'active'> | null {
  const before = text.slice(0, caret);
  const start = before.lastIndexOf('@');
  if (start === -1 || (start > 0 && !/\s/.test(before[start - 1]!))) return null;
  const query = before.slice(start + 1);
  if (query.length > 40 || /[\n@]/.test(query)) return null;
  return { start, query };
}

/**
 * Writing a message. `@` opens a list of the conversation's people and agents (arrow keys, Enter or
 * Tab to pick, Escape to close), inserting the name as the server will recognise it. Enter sends
 * (Shift+Enter for a new line); on touch screens Enter is a new line and the button sends. The box
 * empties at once; if the message could not be sent, its text comes back.
 */
export function Composer({ label, members, onSend }: { label: string; members: MemberView[]; onSend: (body: string) => Promise<boolean> }) {
  const { t } = useI18n();
  const listId = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
  const [mention, setMention] = useState<Mention | null>(null);

  const candidates = mention
    ? members.filter((m) => m.name.toLowerCase().startsWith(mention.query.toLowerCase())).slice(0, 6)
    : [];
  const open = candidates.length > 0;
  const optionId = (i: number) => `${listId}-${i}`;

  // Grows with its text up to about six lines, then scrolls.
  useLayoutEffect(() => {
    const el = textarea.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 160)}px`;
  }, [text]);

  function update(value: string, caret: number) {
    setText(value);
    const found = mentionAt(value, caret);
    setMention(found ? { ...found, active: 0 } : null);
  }

  function pick(member: MemberView) {
    if (!mention) return;
    const caret = textarea.current?.selectionStart ?? text.length;
    const inserted = `@${member.name} `;
    const value = text.slice(0, mention.start) + inserted + text.slice(caret);
    setText(value);
    setMention(null);
    const at = mention.start + inserted.length;
    requestAnimationFrame(() => {
      textarea.current?.focus();
      textarea.current?.setSelectionRange(at, at);
    });
  }

  function send(event?: FormEvent) {
    event?.preventDefault();
    const body = text.trim();
    if (!body) return;
    setText('');
    setMention(null);
    // Not sent: the words come back, unless something new was typed meanwhile.
    void onSend(body).then((sent) => sent || setText((current) => current || body));
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.nativeEvent.isComposing) return;
    if (open && mention) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setMention({ ...mention, active: (mention.active + step + candidates.length) % candidates.length });
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        pick(candidates[mention.active]!);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setMention(null);
        return;
      }
    }
    const touch = typeof window !== 'undefined' && window.matchMedia('(pointer: coarse)').matches;
    if (event.key === 'Enter' && !event.shiftKey && !touch) {
      event.preventDefault();
      send();
    }
  }

  return (
    <form onSubmit={send} className="relative flex items-end gap-2 border-t border-line bg-bg pt-3">
      {open && mention && (
        <ul
          id={listId}
          role="listbox"
          aria-label={t('chat.mentionList')}
          className="absolute right-12 bottom-full left-0 mb-2 flex flex-col overflow-hidden rounded-xl border border-line bg-surface p-1 shadow-card"
        >
          {candidates.map((member, i) => (
            <li
              key={member.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === mention.active}
              // Keep the focus in the textarea while choosing with a pointer.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(member)}
              className={`flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-2 ${i === mention.active ? 'bg-accent-soft' : 'hover:bg-subtle'}`}
            >
              <Avatar name={member.name} kind={member.kind} small />
              <span className="font-medium">{member.name}</span>
              <span className="text-sm text-muted">{member.kind === 'agent' ? t('chat.agent') : t('chat.person')}</span>
            </li>
          ))}
        </ul>
      )}
      <textarea
        ref={textarea}
        value={text}
        rows={1}
        aria-label={label}
        placeholder={label}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open && mention ? optionId(mention.active) : undefined}
        onChange={(event) => update(event.target.value, event.target.selectionStart)}
        onSelect={(event) => {
          const found = mentionAt(event.currentTarget.value, event.currentTarget.selectionStart);
          if (!found) setMention(null);
        }}
        onKeyDown={onKeyDown}
        maxLength={20_000}
        className="min-h-11 flex-1 resize-none rounded-xl border border-line-strong bg-surface px-3.5 py-2.5 text-base leading-snug text-ink placeholder:text-muted"
      />
      <button
        type="submit"
        aria-label={t('chat.send')}
        disabled={!text.trim()}
        className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-accent text-on-accent hover:brightness-110 disabled:opacity-50"
      >
        <svg aria-hidden width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
          <path d="M5 12h14M13 6l6 6-6 6" />
        </svg>
      </button>
    </form>
  );
}
