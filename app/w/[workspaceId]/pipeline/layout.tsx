import type { ReactNode } from 'react';
import { ClientMessages } from '@/components/client-messages';
import { QueryProvider } from '@/components/query-provider';

/** The pipeline board reads and moves deals through TanStack Query. */
export default function PipelineLayout({ children }: { children: ReactNode }) {
  return (
    <ClientMessages segment="pipeline">
      <QueryProvider>{children}</QueryProvider>
    </ClientMessages>
  );
}
