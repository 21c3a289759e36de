'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

let browserClient: QueryClient | undefined;

/** Server components render the first data; refetch only when it is clearly stale. */
const createClient = () => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1 }, mutations: { retry: 0 } } });

/**
 * TanStack Query for the screens that fetch or mutate from the browser (chat, settings, topics,
 * artifacts, the account and workspace forms). It is not in the root providers because the Home has
 * no queries and the library is about 13 KB of compressed JavaScript its first load would carry. The
 * layouts that need it mount this provider; they all share one client per browser tab, so the cache
 * survives moving between them, and every server render gets a fresh one.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  const client = typeof window === 'undefined' ? createClient() : (browserClient ??= createClient());
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
