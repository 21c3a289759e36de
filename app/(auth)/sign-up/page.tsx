import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { safeNext, withNext } from '@/components/auth/safe-next';
import { SignUpForm } from '@/components/auth/sign-up-form';
import { getSessionUser } from '@/lib/auth';
import { getI18n } from '@/lib/i18n/server';
import { AuthHeading } from '@/components/auth/auth-heading';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('signUp.title') };
}

type SearchParams = Promise<{ next?: string | string[]; email?: string }>;

export default async function SignUpPage({ searchParams }: { searchParams: SearchParams }) {
  const [params, { t }, user] = await Promise.all([searchParams, getI18n(), getSessionUser()]);
  const next = safeNext(params.next);
  if (user) redirect(next ?? '/');

  return (
    <>
      <AuthHeading title={t('signUp.title')}>{t('signUp.lead')}</AuthHeading>
      {/* A new account sets up its business first, unless it came for something else (an invitation). */}
      <SignUpForm next={next ?? '/welcome'} email={typeof params.email === 'string' ? params.email : ''} />
      <p className="mt-6 text-[0.9375rem] text-muted">
        {t('signUp.haveAccount')}{' '}
        <Link href={withNext('/sign-in', next)} className="inline-flex min-h-11 items-center font-semibold text-accent-ink underline-offset-4 hover:underline">
          {t('signUp.signIn')}
        </Link>
      </p>
    </>
  );
}
