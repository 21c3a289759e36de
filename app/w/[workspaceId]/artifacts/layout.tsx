import type { ReactNode } from 'react';
import { ClientMessages } from '@/components/client-messages';
import { QueryProvider } from '@/components/query-provider';

/** The artifact viewer (versions, comments, restore) fetches and mutates through TanStack Query. */
export default function ArtifactsLayout({ children }: { children: ReactNode }) {
  return (
    <ClientMessages segment="artifacts">
      <QueryProvider>{children}</QueryProvider>
    </ClientMessages>
  );
}
