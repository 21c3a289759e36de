import type { Metadata } from 'next';
import Link from 'next/link';
import { ResetRequestForm } from '@/components/auth/reset-request-form';
import { config } from '@/lib/config';
import { getI18n } from '@/lib/i18n/server';
import { AuthHeading } from '@/components/auth/auth-heading';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('reset.title') };
}

export default async function ResetPasswordPage() {
  const { t } = await getI18n();
  return (
    <>
      <AuthHeading title={t('reset.title')}>{t('reset.lead')}</AuthHeading>
      <ResetRequestForm />
      <div className="mt-6 flex flex-col gap-1 text-[0.9375rem]">
        <Link href="/sign-in" className="inline-flex min-h-11 w-fit items-center font-semibold text-accent-ink underline-offset-4 hover:underline">
          {t('reset.back')}
        </Link>
        {config().devMailbox && (
          <>
            <Link href="/dev/mailbox" className="inline-flex min-h-11 w-fit items-center text-muted underline-offset-4 hover:underline">
              {t('mailbox.open')}
            </Link>
            <p className="text-sm text-muted">{t('mailbox.hint')}</p>
          </>
        )}
      </div>
    </>
  );
}
