import type { ReactNode } from 'react';
import { ClientMessages } from '@/components/client-messages';
import { QueryProvider } from '@/components/query-provider';

/** Members, invitations, API keys, usage and the workspace form mutate through TanStack Query. */
export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <ClientMessages segment="settings">
      <QueryProvider>{children}</QueryProvider>
    </ClientMessages>
  );
}
