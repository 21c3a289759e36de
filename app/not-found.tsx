import Link from 'next/link';
import { buttonClass } from '@/components/ui/button';
import { LogoMark } from '@/components/brand/logo';
import { getI18n } from '@/lib/i18n/server';

export default async function NotFound() {
  const { t } = await getI18n();
  return (
    <main id="main" tabIndex={-1} className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 px-6 text-center">
      <LogoMark size={48} />
      <h1 className="text-2xl font-bold">{t('notFound.title')}</h1>
      <p className="text-muted">{t('notFound.body')}</p>
      <Link href="/" className={buttonClass('primary')}>
        {t('notFound.home')}
      </Link>
    </main>
  );
}
