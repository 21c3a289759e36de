import type { ReactNode } from 'react';
import { ClientMessages } from '@/components/client-messages';
import { QueryProvider } from '@/components/query-provider';

/** The create-workspace form mutates through TanStack Query. */
export default function WorkspacesLayout({ children }: { children: ReactNode }) {
  return (
    <ClientMessages segment="newWorkspace">
      <QueryProvider>{children}</QueryProvider>
    </ClientMessages>
  );
}
