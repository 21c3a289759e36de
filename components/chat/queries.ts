import { api } from '@/components/api/client';
import type { AgentView, ConversationView, MessageView } from './types';

/** Everything chat caches sits under ['chat', …], so one invalidation can refresh it all. */
export const conversationsKey = (workspaceId: string) => ['chat', 'conversations', workspaceId] as const;
export const conversationKey = (conversationId: string) => ['chat', 'conversation', conversationId] as const;
export const messagesKey = (conversationId: string, count?: number) =>
  (count === undefined ? ['chat', 'messages', conversationId] : ['chat', 'messages', conversationId, count]) as readonly unknown[];
export const agentsKey = (workspaceId: string) => ['chat', 'agents', workspaceId] as const;

export const fetchConversations = (workspaceId: string) => api<ConversationView[]>(`/api/conversations?workspaceId=${workspaceId}`);
export const fetchConversation = (conversationId: string) => api<ConversationView>(`/api/conversations/${conversationId}`);
export const fetchAgents = (workspaceId: string) => api<AgentView[]>(`/api/agents?workspaceId=${workspaceId}`);

export interface MessageWindow {
  messages: MessageView[];
  /** Older messages exist before the first one here. */
  hasOlder: boolean;
}

export const PAGE = 50;

/**
 * The latest `count` messages, oldest first, and every message from `keepFrom` on: a live window
 * refetched after new messages arrive keeps what it already showed at the top, so what you are
 * reading does not move. The API pages backwards 100 at a time, so a window beyond that is fetched
 * in several calls, newest page first.
 */
export async function fetchLatestMessages(conversationId: string, count: number, keepFrom?: number): Promise<MessageWindow> {
  const pages: MessageView[][] = [];
  let before: number | null = null;
  let fetched = 0;
  let more = false;
  const enough = () => fetched >= count && (keepFrom === undefined || (pages[0]?.[0]?.seq ?? Infinity) <= keepFrom);
  while (!enough()) {
    const limit = fetched < count ? Math.min(100, count - fetched) : 100;
    const query: string = `limit=${limit}${before ? `&before=${before}` : ''}`;
    const page: { messages: MessageView[]; nextCursor: number | null } = await api(`/api/conversations/${conversationId}/messages?${query}`);
    pages.unshift(page.messages);
    fetched += page.messages.length;
    more = page.nextCursor !== null;
    if (!page.nextCursor || page.messages.length === 0) break;
    before = page.nextCursor;
  }
  const all = pages.flat();
  // Past `count`, pages overshoot `keepFrom`: what lies before both is left out (it was never shown).
  const countFrom = all.length > count ? all[all.length - count]!.seq : -Infinity;
  const from = keepFrom === undefined ? countFrom : Math.min(countFrom, keepFrom);
  const messages = all.filter((m) => m.seq >= from);
  return { messages, hasOlder: more || messages.length < all.length };
}
