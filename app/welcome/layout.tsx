import type { ReactNode } from 'react';
import { ClientMessages } from '@/components/client-messages';
import { QueryProvider } from '@/components/query-provider';

/** Onboarding saves each screen through TanStack Query. */
export default function WelcomeLayout({ children }: { children: ReactNode }) {
  return (
    <ClientMessages segment="onboarding">
      <QueryProvider>{children}</QueryProvider>
    </ClientMessages>
  );
}
