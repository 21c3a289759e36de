import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { withNext } from '@/components/auth/safe-next';
import { Logo } from '@/components/brand/logo';
import { Alert } from '@/components/ui/alert';
import { buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { TextField } from '@/components/ui/field';
import { MailIcon } from '@/components/ui/icons';
import { getSessionUser, MAILBOX_COOKIE, readMailbox } from '@/lib/auth';
import { config } from '@/lib/config';
import { formatDateTime, formatRelative } from '@/lib/i18n';
import { getI18n } from '@/lib/i18n/server';

/**
 * Links are minted with APP_URL; opening them relative to this page keeps them working when the
 * app runs on another port or host (a dev server, a test run).
 */
function sameOrigin(link: string): string {
  const base = config().APP_URL.replace(/\/$/, '');
  return link.startsWith(`${base}/`) ? link.slice(base.length) : link;
}

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('mailbox.title') };
}

type SearchParams = Promise<{ email?: string | string[]; unlock?: string }>;

/**
 * The mail that would have been sent, for installs without a mail server (embedded by default).
 * A signed-in person sees the mail to their own address; the mailbox key (printed at start) shows all
 * of it; anyone else sees how to get in and nothing of the mail.
 */
export default async function DevMailboxPage({ searchParams }: { searchParams: SearchParams }) {
  if (!config().devMailbox) notFound();
  const [params, { t, locale }, user, cookieStore] = await Promise.all([searchParams, getI18n(), getSessionUser(), cookies()]);
  const email = typeof params.email === 'string' && params.email.trim() ? params.email.trim() : undefined;
  const mailbox = await readMailbox({ user, key: cookieStore.get(MAILBOX_COOKIE)?.value }, { email });

  return (
    <div className="mx-auto flex min-h-dvh max-w-2xl flex-col px-4 py-8">
      <header className="mb-6 flex flex-col gap-4">
        <Link href="/" className="w-fit rounded-lg">
          <Logo />
        </Link>
        <div>
          <h1 className="text-2xl font-bold tracking-tight">{t('mailbox.title')}</h1>
          <p className="text-[0.9375rem] text-muted">{t(config().smtpConfigured ? 'mailbox.leadSent' : 'mailbox.lead')}</p>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex flex-col gap-4">
        {params.unlock === 'failed' && <Alert tone="error">{t('mailbox.keyWrong')}</Alert>}
        {mailbox?.scope === 'all' ? (
          <form method="get" role="search" className="flex items-end gap-2">
            <div className="flex-1">
              <TextField id="email" type="email" label={t('mailbox.filter')} defaultValue={email} autoComplete="off" />
            </div>
            <button type="submit" className={buttonClass('secondary')}>
              {t('mailbox.filterSubmit')}
            </button>
          </form>
        ) : (
          <>
            <p className="text-[0.9375rem]">{user ? t('mailbox.own', { email: user.email }) : t('mailbox.locked')}</p>
            {!user && (
              <Link href={withNext('/sign-in', '/dev/mailbox')} className={buttonClass('primary', 'w-fit')}>
                {t('mailbox.signIn')}
              </Link>
            )}
            <form method="get" action="/dev/mailbox/unlock" className="flex items-end gap-2">
              <div className="flex-1">
                <TextField id="key" type="password" label={t('mailbox.key')} autoComplete="off" required />
              </div>
              <button type="submit" className={buttonClass('secondary')}>
                {t('mailbox.keySubmit')}
              </button>
            </form>
          </>
        )}
        {mailbox &&
          (mailbox.emails.length === 0 ? (
            <EmptyState art={<MailIcon size={40} />} title={t('mailbox.emptyTitle')} body={t('mailbox.emptyBody')} />
          ) : (
            <ol className="flex flex-col gap-3" aria-label={t('mailbox.listLabel')}>
              {mailbox.emails.map((message) => (
                <li key={message.id} className="rounded-2xl border border-line bg-surface p-5 shadow-card">
                  <article aria-labelledby={`mail-${message.id}`} className="flex flex-col gap-2">
                    <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm text-muted">
                      <span>
                        {t('mailbox.to')} <span className="font-medium text-ink">{message.toEmail}</span>
                      </span>
                      <time dateTime={new Date(message.createdAt).toISOString()} title={formatDateTime(message.createdAt, locale)}>
                        {formatRelative(message.createdAt, locale)}
                      </time>
                    </div>
                    <h2 id={`mail-${message.id}`} className="font-semibold">
                      {message.subject}
                    </h2>
                    <p className="text-[0.9375rem] whitespace-pre-wrap text-muted">{message.body}</p>
                    {message.link && (
                      <a href={sameOrigin(message.link)} className="w-fit font-semibold break-all text-accent-ink underline underline-offset-4">
                        {message.link}
                      </a>
                    )}
                  </article>
                </li>
              ))}
            </ol>
          ))}
      </main>
    </div>
  );
}
