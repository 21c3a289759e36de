import type { ReactNode } from 'react';
import { QueryProvider } from '@/components/query-provider';

/** The artifact viewer (versions, comments, restore) fetches and mutates through TanStack Query. */
export default function ArtifactsLayout({ children }: { children: ReactNode }) {
  return <QueryProvider>{children}</QueryProvider>;
}
