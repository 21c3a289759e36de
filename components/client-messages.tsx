import type { ReactNode } from 'react';
import { pickNamespaces, CLIENT_MESSAGES, type ClientMessagesSegment } from '@/lib/i18n';
import { I18nProvider } from '@/lib/i18n/client';
import { getI18n } from '@/lib/i18n/server';

/** Sends the browser the messages one part of the app draws there, on top of what the layouts above it sent. */
export async function ClientMessages({ segment, children }: { segment: ClientMessagesSegment; children: ReactNode }) {
  const { locale, dict } = await getI18n();
  return (
    <I18nProvider locale={locale} dict={pickNamespaces(dict, CLIENT_MESSAGES[segment])}>
      {children}
    </I18nProvider>
  );
}
