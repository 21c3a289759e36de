import type { Metadata } from 'next';
import Link from 'next/link';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClass } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { ChevronRightIcon } from '@/components/ui/icons';
import { PageHeader } from '@/components/ui/page-header';
import { LIST_LIMIT, listCustomers } from '@/lib/customers';
import { formatMoment, formatRelative, plural } from '@/lib/i18n';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from '../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('customers.title') };
}

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * Customers: a search by name, phone or email (a plain GET form: it works before any script loads), and
 * the list, most recently seen first, with the last visit, the usual gap between visits and the next booking.
 */
export default async function CustomersPage({ params, searchParams }: { params: WorkspaceParams; searchParams: SearchParams }) {
  const { workspaceId } = await params;
  const search = await searchParams;
  const q = typeof search.q === 'string' ? search.q.trim().slice(0, 120) : '';
  const erased = typeof search.erased === 'string' && /^\d{1,6}$/.test(search.erased) ? Number(search.erased) : undefined;
  const [{ user, workspace }, { t, locale }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const now = new Date();
  const customers = await listCustomers(user, workspace.id, { q }, now);
  const base = `/w/${workspace.id}/customers`;

  return (
    <>
      <PageHeader title={t('customers.title')} description={t('customers.lead')} />
      {erased !== undefined && <Alert tone="success" className="mb-4">{t('customers.erasedDone', { count: erased })}</Alert>}
      <form role="search" method="get" action={base} className="mb-4 flex items-end gap-2">
        <div className="min-w-0 flex-1">
          <TextField id="q" type="search" label={t('customers.searchLabel')} placeholder={t('customers.searchPlaceholder')} defaultValue={q} autoComplete="off" />
        </div>
        <Button type="submit">{t('customers.search')}</Button>
      </form>

      {customers.length === 0 ? (
        <div className="flex flex-col items-start gap-3 rounded-2xl border border-dashed border-line-strong/50 p-6">
          <p className="text-[0.9375rem]">{q ? t('customers.noMatch', { q }) : t('customers.empty')}</p>
          {q && (
            <Link href={base} className={buttonClass('secondary')}>
              {t('customers.clearSearch')}
            </Link>
          )}
        </div>
      ) : (
        <>
          <p className="mb-2 text-sm text-muted" role="status">
            {customers.length === LIST_LIMIT ? t('customers.limited', { count: LIST_LIMIT }) : plural(t, locale, 'customers.results', customers.length)}
          </p>
          <ul className="flex flex-col gap-2" aria-label={t('customers.title')}>
            {customers.map((c) => (
              <li key={c.id}>
                <Link href={`${base}/${c.id}`} className="flex items-center gap-3 rounded-2xl border border-line bg-surface p-4 shadow-card hover:bg-subtle">
                  <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                    <span className="flex flex-wrap items-center gap-2">
                      <span className="font-semibold">{c.name}</span>
                      {c.vip && <span className="rounded-full bg-accent-soft px-2 text-xs font-semibold text-accent-ink">{t('customers.vip')}</span>}
                    </span>
                    <span className="text-sm text-muted">
                      {c.last_visit_at ? t('customers.lastVisit', { when: formatRelative(c.last_visit_at, locale, now.getTime()) }) : t('customers.noVisits')}
                      {c.usual_gap_days !== null && ` · ${plural(t, locale, 'customers.usualGap', Math.max(1, Math.round(c.usual_gap_days)))}`}
                    </span>
                    {c.next_visit_at && (
                      <span className="text-sm text-muted">{t('customers.nextVisit', { when: formatMoment(c.next_visit_at, locale, workspace.timeZone, now.getTime()) })}</span>
                    )}
                  </span>
                  <ChevronRightIcon className="shrink-0 text-muted" />
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
