import type { ReactNode } from 'react';
import { ClientMessages } from '@/components/client-messages';
import { QueryProvider } from '@/components/query-provider';

/** Consent, notes and erasure mutate through TanStack Query; the list and the detail render on the server. */
export default function CustomersLayout({ children }: { children: ReactNode }) {
  return (
    <ClientMessages segment="customers">
      <QueryProvider>{children}</QueryProvider>
    </ClientMessages>
  );
}
