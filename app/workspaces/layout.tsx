import type { ReactNode } from 'react';
import { QueryProvider } from '@/components/query-provider';

/** The create-workspace form mutates through TanStack Query. */
export default function WorkspacesLayout({ children }: { children: ReactNode }) {
  return <QueryProvider>{children}</QueryProvider>;
}
