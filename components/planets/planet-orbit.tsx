import Link from 'next/link';
import { plural, type Locale, type Translate } from '@/lib/i18n';
import { healthReasonShort } from '@/lib/planets';
import { trendText } from '@/components/home/format';
import type { PlanetSummaryView } from '@/components/home/types';
import { HEALTH_STYLE, HealthGlyph } from './health';
import { PlanetDisc } from './planet-disc';

/**
 * The six planets as a small visual system; each opens its planet page. Fetched on the tap, not
 * prefetched on sight: six prefetches during the Home's load would compete with its hydration on a
 * phone, for pages that render in tens of milliseconds.
 */
export function PlanetOrbit({ planets, workspaceId, locale, t }: { planets: PlanetSummaryView[]; workspaceId: string; locale: Locale; t: Translate }) {
  return (
    <ul className="grid grid-cols-3 gap-x-2 gap-y-3 sm:grid-cols-6">
      {planets.map((p) => (
        <li key={p.planet}>
          <Link
            href={`/w/${workspaceId}/planets/${p.planet}`}
            prefetch={false}
            className="flex min-h-11 flex-col items-center gap-1.5 rounded-2xl px-1 py-2 text-center hover:bg-subtle"
          >
            <PlanetDisc health={p.health} trend={p.trend} hasData={p.hasData} />
            <span className="flex items-center gap-1 text-sm font-semibold">
              {t(`planets.${p.planet}`)}
              {p.newInsights > 0 && (
                <span className="rounded-full bg-accent px-1.5 text-xs leading-4 font-semibold text-on-accent">
                  <span aria-hidden>{p.newInsights}</span>
                  <span className="sr-only">{plural(t, locale, 'planets.newInsights', p.newInsights)}</span>
                </span>
              )}
            </span>
            {p.hasData ? (
              <span className={`flex items-center gap-1 text-xs font-semibold ${HEALTH_STYLE[p.health].ink}`}>
                <HealthGlyph health={p.health} size={12} />
                {p.paused ? t('planets.paused') : t(`health.${p.health}`)}
              </span>
            ) : (
              <span className="text-xs text-muted">{t('planets.noData')}</span>
            )}
            {/* Not good: the rule that says so, so the tile never reads "Watch" beside a rising number without saying why. */}
            {p.hasData && <span className="text-xs text-muted">{p.reason ? healthReasonShort(p.reason, locale, t) : trendText(p.trend, p.changePct, t)}</span>}
          </Link>
        </li>
      ))}
    </ul>
  );
}
