'use client';

import { useEffect, useLayoutEffect, useRef } from 'react';

/** Within this many pixels of the end counts as "at the bottom": new messages keep it pinned there. */
const BOTTOM_SLACK = 48;

/**
 * Keeps the message list pinned to its end while you are at the bottom, and still while you read
 * higher up: new messages then render below you without moving what you read, and earlier ones
 * added on top (call `keepPlace` before loading them) leave it where it was. `messages` and
 * `pendingCount` are what is rendered; `onReachBottom` runs when you scroll or jump to the end.
 */
export function useScrollPinning(messages: readonly unknown[], pendingCount: number, onReachBottom: () => void) {
  const scroller = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const atBottom = useRef(true);
  /** Distance from the end to restore after earlier messages are added on top. */
  const restoreFrom = useRef<number | null>(null);
  /**
   * Where the view was when we last looked. The browser reports a scroll a frame later, so new
   * messages rendered in between would find `atBottom` stale; a scroll position that differs from
   * this one is such an unreported scroll, judged against the content as it was.
   */
  const known = useRef({ top: 0, height: 0 });
  const remember = (el: HTMLDivElement) => {
    known.current = { top: el.scrollTop, height: el.scrollHeight };
  };

  function onScroll() {
    const el = scroller.current!;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK;
    remember(el);
    if (atBottom.current) onReachBottom();
  }
  function scrollToBottom() {
    const el = scroller.current!;
    el.scrollTop = el.scrollHeight;
    atBottom.current = true;
    remember(el);
    onReachBottom();
  }
  function keepPlace() {
    const el = scroller.current!;
    restoreFrom.current = el.scrollHeight - el.scrollTop;
  }
  /** What renders next (your own message being sent) shows at the bottom, scrolled to. */
  function stickToBottom() {
    atBottom.current = true;
  }

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (el.scrollTop !== known.current.top) atBottom.current = known.current.height - el.scrollTop - el.clientHeight < BOTTOM_SLACK;
    if (restoreFrom.current !== null) {
      el.scrollTop = el.scrollHeight - restoreFrom.current;
      restoreFrom.current = null;
    } else if (atBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
    remember(el);
  }, [messages, pendingCount]);

  // Content that grows after rendering (an expanded thread, a card's image) keeps a pinned view pinned.
  useEffect(() => {
    const el = scroller.current;
    if (!el || !list.current) return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(list.current);
    return () => observer.disconnect();
  }, []);

  return { scroller, list, atBottom, onScroll, scrollToBottom, keepPlace, stickToBottom };
}
