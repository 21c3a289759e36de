import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { safeNext, withNext } from '@/components/auth/safe-next';
import { SignInForm } from '@/components/auth/sign-in-form';
import { Alert } from '@/components/ui/alert';
import { MailIcon } from '@/components/ui/icons';
import { getDemoCredentials, getSessionUser } from '@/lib/auth';
import { config } from '@/lib/config';
import { getI18n } from '@/lib/i18n/server';
import { AuthHeading } from '@/components/auth/auth-heading';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('signIn.title') };
}

type SearchParams = Promise<{ next?: string | string[]; reset?: string }>;

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const [params, { t }, user] = await Promise.all([searchParams, getI18n(), getSessionUser()]);
  const next = safeNext(params.next);
  if (user) redirect(next ?? '/');
  const demo = await getDemoCredentials();

  return (
    <>
      <AuthHeading title={t('signIn.title')}>{t('signIn.lead')}</AuthHeading>
      {params.reset && <Alert tone="success" className="mb-4">{t('resetConfirm.done')}</Alert>}
      <SignInForm next={next ?? '/'} demo={demo} />
      <div className="mt-6 flex flex-col gap-1 text-[0.9375rem]">
        <Link href="/reset-password" className="inline-flex min-h-11 w-fit items-center font-semibold text-accent-ink underline-offset-4 hover:underline">
          {t('signIn.forgot')}
        </Link>
        <p className="text-muted">
          {t('signIn.noAccount')}{' '}
          <Link href={withNext('/sign-up', next)} className="inline-flex min-h-11 items-center font-semibold text-accent-ink underline-offset-4 hover:underline">
            {t('signIn.createAccount')}
          </Link>
        </p>
        {config().devMailbox && (
          <>
            <Link href="/dev/mailbox" className="inline-flex min-h-11 w-fit items-center gap-2 text-muted underline-offset-4 hover:underline">
              <MailIcon size={18} />
              {t('mailbox.open')}
            </Link>
            <p className="text-sm text-muted">{t('mailbox.hint')}</p>
          </>
        )}
      </div>
    </>
  );
}
