import Link from 'next/link';
import { OrbitArt } from '@/components/ui/art';
import { Alert } from '@/components/ui/alert';
import { plural, type Locale, type Translate } from '@/lib/i18n';
import { PlanetOrbit } from '@/components/planets/planet-orbit';
import { DoneForYou } from './done-for-you';
import { NeedsYourOk } from './needs-your-ok';
import { Pulse } from './pulse';
import type { ApprovalCardView, DailyBriefView, SectionId } from './types';

/**
 * The daily brief, top to bottom: the pulse line, then the sections in the person's order (default:
 * Needs your OK, Done for you, Planets). Server-rendered; the approval cards and the undo buttons are
 * the only client code.
 */
export function HomeBrief({ brief, approvals, locale, t }: { brief: DailyBriefView; approvals: ApprovalCardView[]; locale: Locale; t: Translate }) {
  const ws = brief.workspaceId;
  const planets = brief.prefs.planets.map((id) => brief.planets.find((p) => p.planet === id)!);
  const sections: Record<SectionId, { title: string; aside?: string; body: React.ReactNode }> = {
    needs: {
      title: t('needs.title'),
      aside: brief.proposalsTotal > 0 ? t('needs.count', { count: brief.proposalsTotal }) : undefined,
      body: (
        <>
          {!brief.canDecide && brief.proposals.length > 0 && <p className="mb-2 text-sm text-muted">{t('needs.readOnly')}</p>}
          <NeedsYourOk
            workspaceId={ws}
            timeZone={brief.timeZone}
            canDecide={brief.canDecide}
            approvals={approvals}
            suggestions={brief.suggestions}
            generatedAt={brief.generatedAt}
            locale={locale}
            t={t}
            empty={
              brief.analysis.finishedEver ? (
                <Quiet art title={t('needs.emptyTitle')} body={t('needs.emptyBody')} />
              ) : (
                <Quiet art title={t('nextSteps.needsEmptyTitle')} body={t('nextSteps.needsEmptyBody')} />
              )
            }
          />
          {brief.proposalsTotal > brief.proposals.length && (
            <p className="mt-2 text-sm text-muted">{plural(t, locale, 'needs.more', brief.proposalsTotal - brief.proposals.length)}</p>
          )}
        </>
      ),
    },
    done: {
      title: t('done.title'),
      aside: t('done.window'),
      body:
        brief.done.length > 0 || brief.routineRuns.count > 0 ? (
          <DoneForYou groups={brief.done} routineRuns={brief.routineRuns} workspaceId={ws} timeZone={brief.timeZone} canDecide={brief.canDecide} locale={locale} t={t} />
        ) : (
          <Quiet title={t('done.emptyTitle')} body={t('done.emptyBody')} />
        ),
    },
    planets: {
      title: t('planets.title'),
      body: <PlanetOrbit planets={planets} workspaceId={ws} locale={locale} t={t} />,
    },
  };

  return (
    <div className="flex flex-col gap-6">
      <Pulse pulse={brief.pulse} locale={locale} t={t} />
      {brief.paused && (
        <Alert tone="error">
          {t('home.pausedBanner')}{' '}
          {brief.canDecide && (
            <Link href={`/w/${ws}/settings/autonomy`} className="font-semibold underline">
              {t('home.pausedLink')}
            </Link>
          )}
        </Alert>
      )}
      {brief.prefs.sections.map((id) => (
        <section key={id} aria-labelledby={`home-${id}`} className="flex flex-col gap-2">
          <div className="flex items-baseline justify-between gap-3 px-1">
            <h2 id={`home-${id}`} className="text-lg font-semibold">
              {sections[id].title}
            </h2>
            {id === 'planets' ? (
              <Link href={`/w/${ws}/planets`} prefetch={false} className="inline-flex min-h-11 items-center text-sm font-semibold text-accent-ink underline-offset-4 hover:underline">
                {t('planets.all')}
              </Link>
            ) : (
              sections[id].aside && <span className="text-sm text-muted">{sections[id].aside}</span>
            )}
          </div>
          {sections[id].body}
        </section>
      ))}
    </div>
  );
}

/** An empty section that says what will appear there. */
function Quiet({ title, body, art = false }: { title: string; body: string; art?: boolean }) {
  return (
    <div className="flex items-center gap-4 rounded-2xl border border-dashed border-line-strong/50 px-4 py-5">
      {art && (
        <span aria-hidden className="hidden shrink-0 text-accent sm:block">
          <OrbitArt />
        </span>
      )}
      <p className="text-[0.9375rem] text-pretty text-muted">
        <span className="block font-semibold text-ink">{title}</span>
        {body}
      </p>
    </div>
  );
}
