import type { ReactNode } from 'react';
import { ClientMessages } from '@/components/client-messages';
import { CenteredPage } from '@/components/shell/centered-page';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <ClientMessages segment="auth">
      <CenteredPage>{children}</CenteredPage>
    </ClientMessages>
  );
}
