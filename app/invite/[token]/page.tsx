import type { Metadata } from 'next';
import Link from 'next/link';
import { SignOutButton } from '@/components/auth/sign-out-button';
import { withNext } from '@/components/auth/safe-next';
import { CenteredPage } from '@/components/shell/centered-page';
import { Alert } from '@/components/ui/alert';
import { buttonClass } from '@/components/ui/button';
import { AcceptInviteButton } from '@/components/workspaces/accept-invite-button';
import { getSessionUser } from '@/lib/auth';
import { getI18n } from '@/lib/i18n/server';
import { getInvitationPreview } from '@/lib/workspaces';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('invitePage.title') };
}

/**
 * The page an invitation email links to. Visitors learn what they were invited to and which
 * address to use; the right person joins with one tap; everything else reads as a sentence.
 */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [preview, user, { t }] = await Promise.all([getInvitationPreview(token), getSessionUser(), getI18n()]);
  const here = `/invite/${token}`;

  if (!preview || preview.accepted || preview.expired) {
    const reason = !preview ? 'invitePage.invalid' : preview.accepted ? 'invitePage.used' : 'invitePage.expired';
    return (
      <CenteredPage>
        <h1 className="mb-4 text-2xl font-bold tracking-tight text-balance">{t('invitePage.unusable')}</h1>
        <Alert tone="error">{t(reason)}</Alert>
        <Link href="/" className={buttonClass('secondary', 'mt-6 w-full')}>
          {user ? t('invitePage.toWorkspaces') : t('invitePage.toSignIn')}
        </Link>
      </CenteredPage>
    );
  }

  const name = preview.workspaceName;
  const rightPerson = user && user.email.toLowerCase() === preview.email.toLowerCase();
  return (
    <CenteredPage>
      <p className="text-sm font-semibold text-accent-ink">{t('invitePage.title')}</p>
      <h1 className="mb-2 text-2xl font-bold tracking-tight text-balance">{t('invitePage.heading', { name })}</h1>
      <p className="mb-6 text-[0.9375rem] text-pretty text-muted">{t('invitePage.sentTo', { email: preview.email })}</p>
      {!user ? (
        <div className="flex flex-col gap-3">
          <p className="text-[0.9375rem] text-pretty">{t('invitePage.signInFirst')}</p>
          <Link href={withNext('/sign-in', here)} className={buttonClass('primary', 'w-full')}>
            {t('invitePage.signIn')}
          </Link>
          <Link href={withNext('/sign-up', here, { email: preview.email })} className={buttonClass('secondary', 'w-full')}>
            {t('invitePage.signUp')}
          </Link>
        </div>
      ) : rightPerson ? (
        <AcceptInviteButton token={token} workspaceName={name} />
      ) : (
        <div className="flex flex-col gap-4">
          <Alert tone="error">{t('invitePage.wrongEmail', { email: preview.email, you: user.email })}</Alert>
          <SignOutButton next={here} />
        </div>
      )}
    </CenteredPage>
  );
}
