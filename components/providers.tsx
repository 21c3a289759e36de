'use client';

import { useEffect, type ReactNode } from 'react';
import { I18nProvider } from '@/lib/i18n/client';
import type { Dictionary, Locale } from '@/lib/i18n';
import { ToastProvider } from './ui/toast';

/**
 * The client-side context every page shares: the user's language and toasts. TanStack Query is
 * mounted by the layouts that use it (components/query-provider.tsx), not here.
 */
export function Providers({ locale, dict, children }: { locale: Locale; dict: Partial<Dictionary>; children: ReactNode }) {
  // The service worker (public/sw.js) shows pushed proposals; registered on every page so the app installs from any of them.
  useEffect(() => {
    navigator.serviceWorker?.register('/sw.js', { scope: '/', updateViaCache: 'none' }).catch(() => undefined);
  }, []);
  return (
    <I18nProvider locale={locale} dict={dict}>
      <ToastProvider>{children}</ToastProvider>
    </I18nProvider>
  );
}
