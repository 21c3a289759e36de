import Link from 'next/link';
import { buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LogoMark } from '@/components/brand/logo';
import { getI18n } from '@/lib/i18n/server';

/** A missing page inside a workspace the visitor does belong to: keep the shell, offer the way home. */
export default async function WorkspacePageNotFound() {
  const { t } = await getI18n();
  return (
    <EmptyState
      art={<LogoMark size={48} />}
      title={t('notFound.title')}
      body={t('notFound.body')}
      heading="h1"
      action={
        <Link href="/" className={buttonClass('primary')}>
          {t('notFound.home')}
        </Link>
      }
    />
  );
}
