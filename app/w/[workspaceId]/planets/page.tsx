import type { Metadata } from 'next';
import Link from 'next/link';
import { trendText } from '@/components/home/format';
import { healthReason, metricLabel, metricValue } from '@/lib/planets';
import { SECTORS } from '@/lib/workspaces';
import { HealthBadge } from '@/components/planets/health';
import { PlanetDisc } from '@/components/planets/planet-disc';
import { ChevronRightIcon } from '@/components/ui/icons';
import { PageHeader } from '@/components/ui/page-header';
import { serialize } from '@/lib/api';
import { planetSummaries } from '@/lib/home';
import { getI18n } from '@/lib/i18n/server';
import { currentWorkspace, type WorkspaceParams } from '../current';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getI18n()).t('nav.planets') };
}

/** The six planets: health (colour, glyph and word), trend, the headline number and the autonomy level. */
export default async function PlanetsPage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ user, workspace }, { t, locale }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const planets = serialize(await planetSummaries(user, workspace.id));
  const sectorName = (id: string) => SECTORS.find((s) => s.id === id)?.label[locale] ?? id;
  return (
    <>
      <PageHeader title={t('nav.planets')} description={t('planets.lead')} />
      <ul className="flex flex-col gap-3">
        {planets.map((p) => (
          <li key={p.planet}>
            <Link
              href={`/w/${workspace.id}/planets/${p.planet}`}
              className="flex items-center gap-4 rounded-2xl border border-line bg-surface p-4 shadow-card hover:bg-subtle"
            >
              <PlanetDisc health={p.health} trend={p.trend} hasData={p.hasData} size={56} />
              <span className="flex min-w-0 flex-1 flex-col gap-1">
                <span className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold">{t(`planets.${p.planet}`)}</span>
                  {p.hasData ? <HealthBadge health={p.health} t={t} /> : <span className="text-sm text-muted">{t('planets.noData')}</span>}
                </span>
                {p.hasData && (
                  <span className="text-sm text-muted">
                    {metricLabel(p.headline.metric, t)}: {metricValue(p.headline, locale, t)} · {trendText(p.trend, p.changePct, t)}
                  </span>
                )}
                {p.hasData && p.reason && (
                  <span className="text-sm text-pretty">
                    {t('healthReason.line', { health: t(`health.${p.health}`), reason: healthReason(p.reason, sectorName(p.sector), locale, t) })}
                  </span>
                )}
                <span className="text-xs text-muted">
                  {t('planet.autonomy')}: {p.paused ? t('planets.paused') : t(`autonomy.level.${p.autonomy}`)}
                </span>
              </span>
              <ChevronRightIcon className="shrink-0 text-muted" />
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-6 text-[0.9375rem] text-pretty text-muted">{t('planets.footnote')}</p>
    </>
  );
}
