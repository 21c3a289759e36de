'use client';

import { useEffect, useRef, useState, type RefObject } from 'react';
import { useI18n } from '@/lib/i18n/client';
import type { MessageView } from './types';

/**
 * New messages from others: announced to screen readers (who wrote what, or how many arrived), and
 * counted in `newBelow` when they land out of sight, below a view that is not at the bottom.
 */
export function useNewMessageNotices(messages: MessageView[], viewerId: string, atBottom: RefObject<boolean>) {
  const { t } = useI18n();
  const [announcement, setAnnouncement] = useState('');
  const [newBelow, setNewBelow] = useState(0);
  const lastSeen = useRef<number | null>(null);
  useEffect(() => {
    const newest = messages.at(-1)?.seq ?? 0;
    if (lastSeen.current === null) {
      lastSeen.current = newest;
      return;
    }
    const fresh = messages.filter((m) => m.seq > lastSeen.current! && m.author.id !== viewerId && !m.deletedAt);
    lastSeen.current = Math.max(lastSeen.current, newest);
    if (fresh.length === 0) return;
    const last = fresh.at(-1)!;
    setAnnouncement(
      fresh.length === 1 ? t('chat.announceOne', { name: last.author.name, text: last.body.slice(0, 160) }) : t('chat.announceMany', { count: fresh.length }),
    );
    if (!atBottom.current) setNewBelow((n) => n + fresh.length);
  }, [messages, t, viewerId, atBottom]);
  return { announcement, newBelow, clearNewBelow: () => setNewBelow(0) };
}
