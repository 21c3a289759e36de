import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Logo } from '@/components/brand/logo';
import { buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { TextField } from '@/components/ui/field';
import { MailIcon } from '@/components/ui/icons';
import { listOutbox } from '@/lib/auth';
import { config } from '@/lib/config';
import { formatDateTime, formatRelative } from '@/lib/i18n/format';
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

/**
 * The mail that would have been sent, for installs without a mail server (embedded by default).
 * People and tests open reset and invitation links from here.
 */
export default async function DevMailboxPage({ searchParams }: { searchParams: Promise<{ email?: string | string[] }> }) {
  if (!config().devMailbox) notFound();
  const [params, { t, locale }] = await Promise.all([searchParams, getI18n()]);
  const email = typeof params.email === 'string' && params.email.trim() ? params.email.trim() : undefined;
  const emails = await listOutbox({ email });

  return (
    <div className="mx-auto flex min-h-dvh max-w-2xl flex-col px-4 py-8">
      <header className="mb-6 flex flex-col gap-4">
        <Link href="/" className="w-fit rounded-lg">
          <Logo />
        </Link>
        <div>
          <h1 className="text-2xl font-bold tracking-tight">{t('mailbox.title')}</h1>
          <p className="text-[0.9375rem] text-muted">{t('mailbox.lead')}</p>
        </div>
        <form method="get" role="search" className="flex items-end gap-2">
          <div className="flex-1">
            <TextField id="email" type="email" label={t('mailbox.filter')} defaultValue={email} autoComplete="off" />
          </div>
          <button type="submit" className={buttonClass('secondary')}>
            {t('mailbox.filterSubmit')}
          </button>
        </form>
      </header>
      <main id="main" tabIndex={-1}>
        {emails.length === 0 ? (
          <EmptyState art={<MailIcon size={40} />} title={t('mailbox.emptyTitle')} body={t('mailbox.emptyBody')} />
        ) : (
          <ol className="flex flex-col gap-3" aria-label={t('mailbox.listLabel')}>
            {emails.map((message) => (
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
        )}
      </main>
    </div>
  );
}
