'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { I18nProvider } from '@/lib/i18n/client';
import type { Dictionary, Locale } from '@/lib/i18n';
import { ToastProvider } from './ui/toast';

/** The client-side context every page shares: one query cache, the user's language, toasts. */
export function Providers({ locale, dict, children }: { locale: Locale; dict: Dictionary; children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        // Server components render the first data; refetch only when it is clearly stale.
        defaultOptions: { queries: { staleTime: 30_000, retry: 1 }, mutations: { retry: 0 } },
      }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider locale={locale} dict={dict}>
        <ToastProvider>{children}</ToastProvider>
      </I18nProvider>
    </QueryClientProvider>
  );
}
