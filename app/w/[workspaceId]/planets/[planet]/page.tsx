import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { decisionState, describeDecision, shortDate } from '@/components/home/format';
import { formatMoment, formatPercent, type MessageKey } from '@/lib/i18n';
import { ChevronRightIcon } from '@/components/ui/icons';
import { HealthBadge } from '@/components/planets/health';
import { insightText } from '@/components/planets/insight-text';
import { PlanetDisc } from '@/components/planets/planet-disc';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { serialize } from '@/lib/api';
import { planetDetail, trendOf } from '@/lib/home';
import { getI18n } from '@/lib/i18n/server';
import { healthReason, isPlanet, metricLabel, metricValue, type Planet } from '@/lib/planets';
import { SECTORS } from '@/lib/workspaces';
import { currentWorkspace } from '../../current';

type Params = Promise<{ workspaceId: string; planet: string }>;


export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const [{ planet }, { t }] = await Promise.all([params, getI18n()]);
  return { title: isPlanet(planet) ? t(`planets.${planet}`) : t('nav.planets') };
}

/** Where each planet is acted on: its daily screen. */
const SCREEN: Partial<Record<Planet, { path: string; label: MessageKey; lead: MessageKey }>> = {
  booking: { path: 'bookings', label: 'planetScreens.bookings', lead: 'planetScreens.bookingsLead' },
  crm: { path: 'customers', label: 'planetScreens.customers', lead: 'planetScreens.customersLead' },
  sales: { path: 'pipeline', label: 'planetScreens.pipeline', lead: 'planetScreens.pipelineLead' },
};

const SEVERITY_DOT = { info: 'bg-line-strong', watch: 'bg-[#b7791f]', act: 'bg-danger' } as const;

/** A planet's page: health and trend, every metric with its comparison and benchmark, insights, actions, autonomy. */
export default async function PlanetPage({ params }: { params: Params }) {
  const { workspaceId, planet } = await params;
  if (!isPlanet(planet)) notFound();
  const [{ user, workspace }, { t, locale }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const detail = await planetDetail(user, workspace.id, planet);
  const { trend } = trendOf(detail.metrics);
  const insights = serialize(detail.insights);
  const decisions = serialize(detail.decisions);
  // The sector whose benchmark judged the planet (`other` for a sector without a pack).
  const sector = SECTORS.find((s) => s.id === detail.metrics.sector)?.label[locale] ?? detail.metrics.sector;
  const [first, ...others] = detail.metrics.findings;

  return (
    <>
      <PageHeader title={t(`planets.${planet}`)} back={{ href: `/w/${workspace.id}/planets`, label: t('planet.back') }} />
      <div className="flex flex-col gap-6">
        <Card>
          <div className="flex items-center gap-4">
            <PlanetDisc health={detail.metrics.health} trend={trend} hasData={detail.hasData} />
            <div className="flex flex-col items-start gap-1">
              {detail.hasData ? <HealthBadge health={detail.metrics.health} t={t} /> : <span className="text-muted">{t('planets.noData')}</span>}
              <p className="text-sm text-muted">
                {t('planet.autonomy')}: <span className="font-semibold text-ink">{detail.paused ? t('planets.paused') : t(`autonomy.level.${detail.autonomy}`)}</span>
              </p>
              {detail.role !== 'member' && (
                <Link href={`/w/${workspace.id}/settings/autonomy`} className="inline-flex min-h-11 items-center text-sm font-semibold text-accent-ink underline-offset-4 hover:underline">
                  {t('planet.autonomyChange')}
                </Link>
              )}
            </div>
          </div>
          {detail.hasData && (
            <div className="mt-4 flex flex-col gap-1 border-t border-line pt-3" data-testid="planet-health-reason">
              {first ? (
                <p className="text-[0.9375rem] text-pretty">{t('healthReason.line', { health: t(`health.${detail.metrics.health}`), reason: healthReason(first, sector, locale, t) })}</p>
              ) : (
                <p className="text-[0.9375rem] text-pretty">{t('healthReason.allGood', { sector: sector.toLocaleLowerCase(locale) })}</p>
              )}
              {others.length > 0 && (
                <>
                  <p className="text-sm text-muted">{t('healthReason.more')}</p>
                  <ul className="list-disc pl-5 text-sm text-pretty text-muted">
                    {others.map((f) => (
                      <li key={`${f.kind}.${f.metric}`}>{healthReason(f, sector, locale, t)}</li>
                    ))}
                  </ul>
                </>
              )}
            </div>
          )}
        </Card>

        {SCREEN[planet] && (
          <Link
            href={`/w/${workspace.id}/${SCREEN[planet].path}`}
            className="flex min-h-12 items-center justify-between gap-3 rounded-2xl border border-line bg-surface px-4 py-3 font-semibold shadow-card hover:bg-subtle"
          >
            <span className="flex flex-col">
              <span>{t(SCREEN[planet].label)}</span>
              <span className="text-sm font-normal text-muted">{t(SCREEN[planet].lead)}</span>
            </span>
            <ChevronRightIcon className="shrink-0 text-muted" />
          </Link>
        )}

        <section aria-labelledby="planet-metrics">
          <h2 id="planet-metrics" className="px-1 text-lg font-semibold">
            {t('planet.metrics')}
          </h2>
          <p className="mb-2 px-1 text-sm text-pretty text-muted">{t('planet.metricsLead', { sector: sector.toLowerCase() })}</p>
          <dl className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface shadow-card">
            {Object.entries(detail.metrics.metrics).map(([name, m]) => {
              return (
                <div key={name} className="grid grid-cols-[minmax(0,1fr)_auto] items-baseline gap-x-4 gap-y-0.5 px-4 py-3 sm:px-5">
                  <dt className="text-[0.9375rem]">{metricLabel(name, t)}</dt>
                  <dd className="text-right font-semibold tabular-nums">{metricValue(m, locale, t)}</dd>
                  {(m.changePct !== undefined && m.changePct !== null) || m.benchmark !== undefined ? (
                    <dd className="col-span-2 text-right text-xs text-muted tabular-nums">
                      {m.changePct !== undefined && m.changePct !== null && t('planet.vsPrevious', { change: formatPercent(m.changePct, locale, true) })}
                      {m.changePct !== undefined && m.changePct !== null && m.benchmark !== undefined && ' · '}
                      {m.benchmark !== undefined && t('planet.benchmark', { value: metricValue({ value: m.benchmark, unit: m.unit }, locale, t) })}
                    </dd>
                  ) : null}
                </div>
              );
            })}
          </dl>
        </section>

        <section aria-labelledby="planet-insights">
          <h2 id="planet-insights" className="mb-2 px-1 text-lg font-semibold">
            {t('planet.insights')}
          </h2>
          {insights.length === 0 ? (
            <p className="rounded-2xl border border-dashed border-line-strong/50 px-4 py-5 text-[0.9375rem] text-pretty text-muted">{t('planet.insightsEmpty')}</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {insights.map((i) => {
                const text = insightText(i, locale, t);
                return (
                  <li key={i.id} className="flex gap-3 rounded-2xl border border-line bg-surface px-4 py-3 shadow-card">
                    <span aria-hidden className={`mt-2 size-2.5 shrink-0 rounded-full ${SEVERITY_DOT[i.severity]}`} />
                    <div className="flex min-w-0 flex-col">
                      <p className="text-[0.9375rem] text-pretty">{text.title}</p>
                      {text.body && <p className="text-sm text-pretty text-muted">{text.body}</p>}
                      <p className="text-xs text-muted">
                        {shortDate(`${i.insightDate}T12:00:00Z`, locale, detail.timeZone)} ·{' '}
                        {i.source === 'agent' ? t('planet.source.agent', { planet: t(`planets.${planet}`) }) : t('planet.source.rules')}
                      </p>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </section>

        <section aria-labelledby="planet-recent">
          <h2 id="planet-recent" className="mb-2 px-1 text-lg font-semibold">
            {t('planet.recent')}
          </h2>
          {decisions.length === 0 ? (
            <p className="rounded-2xl border border-dashed border-line-strong/50 px-4 py-5 text-[0.9375rem] text-muted">{t('planet.recentEmpty')}</p>
          ) : (
            <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface shadow-card">
              {decisions.map((d) => (
                <li key={d.id} className="flex flex-col px-4 py-3 sm:px-5">
                  <span className="text-[0.9375rem] text-pretty">{describeDecision(d, locale, detail.timeZone, t).what}</span>
                  <span className="text-xs text-muted">
                    {decisionState(d, locale, detail.timeZone, t)} · {formatMoment(d.executedAt ?? d.createdAt, locale, detail.timeZone)} ·{' '}
                    {t(d.tier === 'auto' ? 'done.auto' : 'autonomy.level.propose')}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}
