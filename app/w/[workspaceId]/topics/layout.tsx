import type { ReactNode } from 'react';
import { ClientMessages } from '@/components/client-messages';
import { QueryProvider } from '@/components/query-provider';

/** Topics, their forms and sessions fetch and mutate through TanStack Query. */
export default function TopicsLayout({ children }: { children: ReactNode }) {
  return (
    <ClientMessages segment="topics">
      <QueryProvider>{children}</QueryProvider>
    </ClientMessages>
  );
}
