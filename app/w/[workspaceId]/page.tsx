import type { Metadata } from 'next';
import { ClientMessages } from '@/components/client-messages';
import { CustomizeHome } from '@/components/home/customize-home';
import { HomeBrief } from '@/components/home/home-brief';
import { NextSteps } from '@/components/home/next-steps';
import { describeDecision } from '@/components/home/format';
import type { ApprovalCardView, DailyBriefView } from '@/components/home/types';
import { displayName } from '@/components/workspaces/types';
import Link from 'next/link';
import { serialize } from '@/lib/api';
import { listWorkspaceAgents } from '@/lib/agents';
import { stampResults } from '@/lib/cards';
import { approvalResult, composeDailyBrief } from '@/lib/home';
import type { Locale, Translate } from '@/lib/i18n';
import { getI18n } from '@/lib/i18n/server';
import { log } from '@/lib/log';
import { getOnboarding } from '@/lib/onboarding';
import { currentWorkspace, type WorkspaceParams } from './current';

export async function generateMetadata({ params }: { params: WorkspaceParams }): Promise<Metadata> {
  const [{ workspace }, { t }] = await Promise.all([currentWorkspace((await params).workspaceId), getI18n()]);
  return { title: displayName(workspace, t) };
}

/**
 * Home: the daily brief, composed on the server (lib/home, no client fetch) and sent whole in the
 * first HTML. Not streamed behind a skeleton on purpose: the brief takes tens of milliseconds, while a
 * streamed boundary is revealed only after React's reveal throttle (300 ms past the first paint), so
 * the first card — the page's largest paint — would wait for it and for the scripts loading meanwhile.
 */
export default async function HomePage({ params }: { params: WorkspaceParams }) {
  const { workspaceId } = await params;
  const [{ user, workspace }, { t, locale }] = await Promise.all([currentWorkspace(workspaceId), getI18n()]);
  const today = new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', timeZone: workspace.timeZone }).format(new Date());
  let home: { brief: DailyBriefView; approvals: ApprovalCardView[]; agents: string[] } | null = null;
  try {
    const brief = serialize(await composeDailyBrief(user, workspace.id));
    // The team is named only while the agents have not looked yet (the "what happens next" card).
    const agents = brief.analysis.finishedEver ? [] : (await listWorkspaceAgents(user, workspace.id)).map((a) => a.name);
    home = { brief, approvals: await approvalCards(brief, locale, t), agents };
  } catch (error) {
    log('error', 'daily brief failed', { workspaceId, error });
  }
  const onboarding = await getOnboarding(user).catch(() => null);

  return (
    <ClientMessages segment="home">
      <header className="mb-5 flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="text-sm font-semibold text-accent-ink first-letter:uppercase">{today}</p>
          <h1 className="text-3xl font-bold tracking-tight text-balance">{displayName(workspace, t)}</h1>
        </div>
        {home && <CustomizeHome workspaceId={workspace.id} prefs={home.brief.prefs} />}
      </header>
      {onboarding && !onboarding.completedAt && (
        <p className="mb-5 flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-line bg-surface px-5 py-4">
          <span className="text-[0.9375rem] text-pretty">{t('nextSteps.finishSetupLead')}</span>
          <Link href="/welcome" className="inline-flex min-h-11 items-center font-semibold text-accent-ink underline">
            {t('nextSteps.finishSetup')}
          </Link>
        </p>
      )}
      {home && !home.brief.analysis.finishedEver && (
        <div className="mb-6">
          <NextSteps brief={home.brief} agents={home.agents} locale={locale} t={t} />
        </div>
      )}
      {home ? (
        <HomeBrief brief={home.brief} approvals={home.approvals} locale={locale} t={t} />
      ) : (
        <div role="alert" className="rounded-2xl border border-danger/40 bg-danger-soft px-5 py-6">
          <h2 className="text-lg font-semibold">{t('home.errorTitle')}</h2>
          <p className="mt-1 text-[0.9375rem] text-pretty">{t('home.errorBody')}</p>
          <a href="" className="mt-3 inline-flex min-h-11 items-center font-semibold underline">
            {t('home.reload')}
          </a>
        </div>
      )}
    </ClientMessages>
  );
}

/** The waiting proposals as `approval` cards, stamped in the reader's language and the workspace's time zone. */
async function approvalCards(brief: DailyBriefView, locale: Locale, t: Translate): Promise<ApprovalCardView[]> {
  const words = brief.proposals.map((d) => ({ ...describeDecision(d, locale, brief.timeZone, t), channel: d.channel ? t(`channel.${d.channel}`) : undefined }));
  const cards = await stampResults(brief.proposals.map((d, i) => approvalResult(d, words[i]!)));
  return brief.proposals.map((d, i) => ({ id: d.id, what: words[i]!.what, card: cards[i]! }));
}
