import type { Metadata } from 'next';
import Link from 'next/link';
import { ResetConfirmForm } from '@/components/auth/reset-confirm-form';
import { Alert } from '@/components/ui/alert';
import { getI18n } from '@/lib/i18n/server';
import { AuthHeading } from '@/components/auth/auth-heading';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('resetConfirm.title') };
}

export default async function ResetConfirmPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const [{ token }, { t }] = await Promise.all([searchParams, getI18n()]);
  return (
    <>
      <AuthHeading title={t('resetConfirm.title')}>{t('resetConfirm.lead')}</AuthHeading>
      {typeof token === 'string' && token ? (
        <ResetConfirmForm token={token} />
      ) : (
        <Alert tone="error">{t('resetConfirm.missingToken')}</Alert>
      )}
      <Link href="/reset-password" className="mt-6 inline-flex min-h-11 items-center text-[0.9375rem] font-semibold text-accent-ink underline-offset-4 hover:underline">
        {t('resetConfirm.requestNew')}
      </Link>
    </>
  );
}
