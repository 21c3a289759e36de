import Link from 'next/link';
import type { Locale, Translate } from '@/lib/i18n';
import { RunAnalysisNow } from './run-analysis-now';
import type { DailyBriefView } from './types';

/**
 * What happens next, for a workspace whose agents have not looked yet: when the first analysis runs
 * (or that it waits for data), who is on the team, and "Run now" for the owner and admins.
 */
export function NextSteps({ brief, agents, locale, t }: { brief: DailyBriefView; agents: string[]; locale: Locale; t: Translate }) {
  const ws = brief.workspaceId;
  const hasData = brief.planets.some((p) => p.hasData);
  const when = new Intl.DateTimeFormat(locale, { weekday: 'long', hour: '2-digit', minute: '2-digit', timeZone: brief.timeZone }).format(new Date(brief.analysis.nextRunAt));
  return (
    <section aria-labelledby="next-steps" className="flex flex-col gap-3 rounded-2xl border border-accent/40 bg-accent-soft px-5 py-5">
      <h2 id="next-steps" className="text-lg font-semibold">
        {t('nextSteps.title')}
      </h2>
      <p className="text-[0.9375rem] text-pretty">
        {t('nextSteps.notYet')}{' '}
        {hasData ? t('nextSteps.firstRunAt', { when, timeZone: brief.timeZone }) : t('nextSteps.waitingForData', { timeZone: brief.timeZone })}
      </p>
      {agents.length > 0 && (
        <p className="text-[0.9375rem] text-pretty">
          {t('nextSteps.team', { names: new Intl.ListFormat(locale, { type: 'conjunction' }).format(agents) })}{' '}
          <Link href={`/w/${ws}/settings/agents`} className="font-semibold text-accent-ink underline">
            {t('nextSteps.meetTeam')}
          </Link>
        </p>
      )}
      {!hasData && (
        <p className="text-[0.9375rem] text-pretty">
          <Link href={`/w/${ws}/settings/data`} className="font-semibold text-accent-ink underline">
            {t('nextSteps.importData')}
          </Link>
        </p>
      )}
      {brief.canDecide && <RunAnalysisNow workspaceId={ws} initiallyRunning={brief.analysis.running} />}
    </section>
  );
}
