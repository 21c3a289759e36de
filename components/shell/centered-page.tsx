import Link from 'next/link';
import type { ReactNode } from 'react';
import { Logo } from '@/components/brand/logo';
import { QueryProvider } from '@/components/query-provider';
import { LanguageSwitch } from '@/components/settings/language-switch';

/**
 * Screens outside a workspace (account, invitation): one calm column, the language choice below. Their
 * forms mutate through TanStack Query, so the column mounts its provider.
 */
export function CenteredPage({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col items-center px-4 pt-[max(2rem,env(safe-area-inset-top))] pb-[max(1.5rem,env(safe-area-inset-bottom))]">
      <header className="flex h-12 items-center">
        <Link href="/" className="rounded-lg px-1">
          <Logo />
        </Link>
      </header>
      <main id="main" tabIndex={-1} className="w-full max-w-sm flex-1 py-8">
        <QueryProvider>{children}</QueryProvider>
      </main>
      <footer>
        <LanguageSwitch compact />
      </footer>
    </div>
  );
}
