import type { ReactNode } from 'react';
import { QueryProvider } from '@/components/query-provider';

/** Members, invitations, API keys, usage and the workspace form mutate through TanStack Query. */
export default function SettingsLayout({ children }: { children: ReactNode }) {
  return <QueryProvider>{children}</QueryProvider>;
}
