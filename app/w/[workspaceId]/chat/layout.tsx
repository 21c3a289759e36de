import type { ReactNode } from 'react';
import { ClientMessages } from '@/components/client-messages';
import { QueryProvider } from '@/components/query-provider';

/** Conversations load, send and update live from the browser through TanStack Query. */
export default function ChatLayout({ children }: { children: ReactNode }) {
  return (
    <ClientMessages segment="chat">
      <QueryProvider>{children}</QueryProvider>
    </ClientMessages>
  );
}
