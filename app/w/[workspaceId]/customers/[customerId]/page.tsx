import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { CustomerEditor } from '@/components/customers/customer-editor';
import { EraseCustomer } from '@/components/customers/erase-customer';
import { CopyMessage } from '@/components/home/copy-message';
import { copyable, deliveryText } from '@/components/home/delivery';
import { Card, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { ApiError, isUuid, serialize } from '@/lib/api';
import { getCustomer, HISTORY_LIMIT, NOTES_MAX, type CustomerDetail } from '@/lib/customers';
import { formatMoment, formatRelative, plural } from '@/lib/i18n';
import { getI18n } from '@/lib/i18n/server';
import { money } from '@/lib/planets';
import { currentWorkspace } from '../../current';

type Params = Promise<{ workspaceId: string; customerId: string }>;

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('customers.title') };
}

/** One customer: contact, figures, consent and notes, visits, the messages sent to them, and (managers) erasure. */
export default async function CustomerPage({ params }: { params: Params }) {
  const { workspaceId, customerId } = await params;
  const [{ user, workspace }, { t, locale }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  if (!isUuid(customerId)) notFound();
  const now = new Date();
  let customer: CustomerDetail;
  try {
    customer = await getCustomer(user, workspace.id, customerId, now);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) notFound();
    throw error;
  }
  const tz = workspace.timeZone;
  const base = `/w/${workspace.id}/customers`;
  const canErase = workspace.role !== 'member';

  return (
    <>
      <PageHeader title={customer.name} description={t('customers.since', { when: formatRelative(customer.created_at, locale, now.getTime()) })} back={{ href: base, label: t('customers.back') }} />
      <div className="flex flex-col gap-4">
        <Card>
          <CardTitle>{t('customers.contact')}</CardTitle>
          {customer.phone || customer.email ? (
            <ul className="mt-2 flex flex-col gap-1 text-[0.9375rem]">
              {customer.phone && (
                <li>
                  <a className="font-medium text-accent-ink underline" href={`tel:${customer.phone.replace(/[^\d+]/g, '')}`}>
                    {customer.phone}
                  </a>
                </li>
              )}
              {customer.email && (
                <li>
                  <a className="font-medium break-all text-accent-ink underline" href={`mailto:${customer.email}`}>
                    {customer.email}
                  </a>
                </li>
              )}
            </ul>
          ) : (
            <p className="mt-2 text-[0.9375rem] text-muted">{t('customers.noContact')}</p>
          )}
        </Card>

        <Card>
          <CardTitle>{t('customers.stats')}</CardTitle>
          <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
            {[
              [t('customers.visitsCount'), String(customer.visit_count)],
              [t('customers.spend'), money(customer.spend_cents, locale)],
              [t('customers.noShows'), String(customer.no_shows)],
              [
                t('customers.usualGapLabel'),
                customer.usual_gap_days === null ? t('customers.gapUnknown') : plural(t, locale, 'customers.gapDays', Math.max(1, Math.round(customer.usual_gap_days))),
              ],
            ].map(([label, value]) => (
              <div key={label} className="rounded-xl bg-subtle p-3">
                <dt className="text-sm text-muted">{label}</dt>
                <dd className="text-lg font-semibold">{value}</dd>
              </div>
            ))}
          </dl>
        </Card>

        <CustomerEditor
          workspaceId={workspace.id}
          customerId={customer.id}
          notesMax={NOTES_MAX}
          initial={{ consentMessages: customer.consent_messages, consentMarketing: customer.consent_marketing, notes: customer.notes }}
        />

        <Card>
          <CardTitle>{t('customers.visits')}</CardTitle>
          {customer.visits.length === 0 ? (
            <p className="mt-2 text-[0.9375rem] text-muted">{t('customers.noVisitsYet')}</p>
          ) : (
            <ul className="mt-2 flex flex-col divide-y divide-line">
              {customer.visits.map((v) => (
                <li key={v.id} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 py-2">
                  <span className="flex flex-col">
                    <span className="font-medium">{formatMoment(v.starts_at, locale, tz, now.getTime())}</span>
                    <span className="text-sm text-muted">{t('customers.visitLine', { service: v.service_name, staff: v.staff_name })}</span>
                  </span>
                  <span className="text-sm">
                    {t(`customers.status.${v.status}`)} · {money(v.price_cents, locale)}
                  </span>
                </li>
              ))}
            </ul>
          )}
          {customer.visits.length === HISTORY_LIMIT && <p className="mt-2 text-sm text-muted">{t('customers.visitsLimited', { count: HISTORY_LIMIT })}</p>}
        </Card>

        <Card>
          <CardTitle>{t('customers.messages')}</CardTitle>
          {customer.messages.length === 0 ? (
            <p className="mt-2 text-[0.9375rem] text-muted">{t('customers.noMessages')}</p>
          ) : (
            <ul className="mt-2 flex flex-col divide-y divide-line">
              {customer.messages.map((m) => (
                <li key={m.id} className="flex flex-col gap-1 py-3">
                  <span className="text-sm font-semibold">
                    {t('customers.messageTo', { channel: t(`customers.channel.${m.channel}`), recipient: m.recipient })} ·{' '}
                    <span className="font-normal text-muted">{formatMoment(m.created_at, locale, tz, now.getTime())}</span>
                  </span>
                  {m.subject && <span className="text-sm font-medium">{m.subject}</span>}
                  <p className="text-[0.9375rem] whitespace-pre-line text-pretty">{m.body}</p>
                  <span className="text-sm text-muted">{deliveryText(serialize(m), locale, tz, t)}</span>
                  {copyable(m) && (
                    <span>
                      <CopyMessage text={m.body} name={customer.name} labels={{ copy: t('delivery.copy'), copied: t('delivery.copied') }} />
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Card>

        {canErase ? (
          <Card tone="danger">
            <CardTitle id="erase-title">{t('customers.erase')}</CardTitle>
            <p className="mt-2 mb-4 text-[0.9375rem] text-pretty">{t('customers.eraseLead', { name: customer.name })}</p>
            <EraseCustomer workspaceId={workspace.id} customerId={customer.id} name={customer.name} />
          </Card>
        ) : (
          <p className="text-sm text-muted">{t('customers.eraseManagersOnly')}</p>
        )}
      </div>
    </>
  );
}
