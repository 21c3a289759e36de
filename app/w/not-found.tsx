import Link from 'next/link';
import { buttonClass } from '@/components/ui/button';
import { LogoMark } from '@/components/brand/logo';
import { getI18n } from '@/lib/i18n/server';

/**
 * Shown when the workspace layout calls notFound(): the workspace does not exist or the visitor is
 * not a member. One message for both, so a URL never reveals that a workspace exists.
 * (It lives here, one level up, because a layout's notFound() is caught by its parent's boundary.)
 */
export default async function WorkspaceNotFound() {
  const { t } = await getI18n();
  return (
    <main id="main" tabIndex={-1} className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 px-6 text-center">
      <LogoMark size={48} />
      <h1 className="text-2xl font-bold text-balance">{t('workspaceNotFound.title')}</h1>
      <p className="text-muted">{t('workspaceNotFound.body')}</p>
      <Link href="/" className={buttonClass('primary')}>
        {t('workspaceNotFound.home')}
      </Link>
    </main>
  );
}
