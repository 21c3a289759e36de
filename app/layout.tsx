import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import { pickNamespaces, CLIENT_MESSAGES } from '@/lib/i18n';
import { getI18n } from '@/lib/i18n/server';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return {
    title: { template: '%s · Multiverbe', default: 'Multiverbe' },
    description: t('app.description'),
    icons: { icon: '/icon.svg', apple: '/icons/icon-192.png' },
    // iOS shows web pushes only to an app added to the Home Screen, which opens standalone with this.
    appleWebApp: { capable: true, title: 'Multiverbe' },
  };
}

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  // The bottom navigation pads itself with the safe-area inset, so the page may extend under it.
  viewportFit: 'cover',
  colorScheme: 'light dark',
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#faf7f2' },
    { media: '(prefers-color-scheme: dark)', color: '#161311' },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const { locale, dict, t } = await getI18n();
  return (
    <html lang={locale}>
      <body className="min-h-dvh antialiased">
        <a
          href="#main"
          className="fixed left-3 top-3 z-[60] -translate-y-24 rounded-xl bg-accent px-4 py-3 text-[0.9375rem] font-semibold text-on-accent focus:translate-y-0"
        >
          {t('common.skipToContent')}
        </a>
        <Providers locale={locale} dict={pickNamespaces(dict, CLIENT_MESSAGES.root)}>
          {children}
        </Providers>
      </body>
    </html>
  );
}
