import type { ReactNode } from 'react';
import { QueryProvider } from '@/components/query-provider';

/** Topics, their forms and sessions fetch and mutate through TanStack Query. */
export default function TopicsLayout({ children }: { children: ReactNode }) {
  return <QueryProvider>{children}</QueryProvider>;
}
