import type { ReactNode } from 'react';
import { ClientMessages } from '@/components/client-messages';
import { QueryProvider } from '@/components/query-provider';

/** Bookings reads and changes appointments from the browser through TanStack Query. */
export default function BookingsLayout({ children }: { children: ReactNode }) {
  return (
    <ClientMessages segment="bookings">
      <QueryProvider>{children}</QueryProvider>
    </ClientMessages>
  );
}
