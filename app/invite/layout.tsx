import type { ReactNode } from 'react';
import { ClientMessages } from '@/components/client-messages';

export default function InviteLayout({ children }: { children: ReactNode }) {
  return <ClientMessages segment="invite">{children}</ClientMessages>;
}
