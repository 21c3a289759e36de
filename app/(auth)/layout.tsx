import type { ReactNode } from 'react';
import { CenteredPage } from '@/components/shell/centered-page';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return <CenteredPage>{children}</CenteredPage>;
}
