'use client';

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { CheckIcon, CloseIcon } from '@/components/ui/icons';
import { useI18n } from '@/lib/i18n/client';
import { BACKENDS } from '@/lib/agent/client';
import { plural, formatDateTime, formatRelative, type Locale, type Translate } from '@/lib/i18n';
import { isPlanet } from '@/lib/planets/client';
import { duration, howItEnded, readableOutcome, toolCallWords, whatRan } from './run-words';
import type { RunDetailView, RunSummaryView, UsageReportView } from './types';

const PAGE = 50;

export const usageKey = (workspaceId: string) => ['workspaces', workspaceId, 'usage'] as const;

/**
 * Settings → Usage: this month's tokens against the plan's cap, where they went (planets, agents), which
 * model runs and why, and every run with its stop reason; a run opens to its tool calls and timings.
 */
export function UsageView({ workspaceId, initial }: { workspaceId: string; initial: UsageReportView }) {
  const { t, locale } = useI18n();
  const pages = useInfiniteQuery({
    queryKey: usageKey(workspaceId),
    queryFn: ({ pageParam }) =>
      api<UsageReportView>(`/api/workspaces/${workspaceId}/usage?limit=${PAGE}${pageParam ? `&before=${encodeURIComponent(pageParam)}` : ''}`),
    initialPageParam: '',
    getNextPageParam: (last) => (last.runs.length === PAGE ? last.runs.at(-1)!.createdAt : undefined),
    initialData: { pages: [initial], pageParams: [''] },
  });
  const report = pages.data?.pages[0] ?? initial;
  const backend = report.backend;
  const runs = pages.data?.pages.flatMap((p) => p.runs) ?? initial.runs;
  const fmt = numberFormats(locale);
  const planetName = usePlanetName();

  return (
    <div className="flex flex-col gap-6">
      {pages.isError && (
        <Alert tone="error">
          {t('usage.loadError')}{' '}
          <button type="button" className="min-h-11 font-semibold underline" onClick={() => pages.refetch()}>
            {t('usage.retry')}
          </button>
        </Alert>
      )}
      <MonthCard report={report} fmt={fmt} />

      <Card>
        <CardTitle>{t('usage.model')}</CardTitle>
        <p className="mt-2 font-semibold">{t(`usage.backend.${backend.active}`)}</p>
        <p className="mt-1 text-[0.9375rem] text-pretty text-muted">{backendWhy(backend, t)}</p>
      </Card>

      <Breakdown title={t('usage.byPlanet')} rows={report.byPlanet.map((p) => ({ key: p.planet, label: planetName(p.planet), tokens: p.tokens, runs: p.runs }))} total={report.used} fmt={fmt} />
      <Breakdown
        title={t('usage.byAgent')}
        rows={report.byAgent.map((a) => ({ key: `${a.agentId ?? ''}:${a.agentName}`, label: a.agentName || t('usage.unnamedAgent'), tokens: a.tokens, runs: a.runs }))}
        total={report.used}
        fmt={fmt}
      />

      <Card>
        <CardTitle>{t('usage.runs')}</CardTitle>
        {runs.length === 0 ? (
          <p className="mt-2 text-[0.9375rem] text-pretty text-muted">{t('usage.noRuns')}</p>
        ) : (
          <ul className="mt-3 divide-y divide-line">
            {runs.map((run) => (
              <RunItem key={run.id} workspaceId={workspaceId} run={run} fmt={fmt} />
            ))}
          </ul>
        )}
        {pages.hasNextPage && (
          <Button variant="secondary" className="mt-4 w-full sm:w-auto" pending={pages.isFetchingNextPage} pendingLabel={t('usage.loading')} onClick={() => pages.fetchNextPage()}>
            {t('usage.olderRuns')}
          </Button>
        )}
      </Card>
    </div>
  );
}

export type Formats = ReturnType<typeof numberFormats>;

/** A run's planet as the rest of the app names it; `cross` is a run that spans planets. */
function usePlanetName() {
  const { t } = useI18n();
  return (planet: string) =>
    isPlanet(planet) ? t(`planets.${planet}`) : planet === 'cross' ? t('usage.acrossPlanets') : capitalize(planet);
}

export function numberFormats(locale: Locale) {
  const compact = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
  const plain = new Intl.NumberFormat(locale);
  return { compact: (n: number) => compact.format(n), plain: (n: number) => plain.format(n) };
}

/**
 * Why this model runs, in the reader's language. The automatic rule picks only the Anthropic API, a Claude
 * login or the offline model; what an unavailable backend lacks stays in the server's words (env names).
 */
function backendWhy(backend: UsageReportView['backend'], t: Translate): string {
  const why =
    backend.source === 'automatic'
      ? t(`usage.backendWhy.${backend.active as 'offline' | 'anthropic' | 'claude-code'}`)
      : t(backend.source === 'setting' ? 'usage.backendWhy.setting' : 'usage.backendWhy.environment');
  return backend.available ? why : `${why} ${t('usage.backendUnavailable', { detail: backend.reason })}`;
}

function MonthCard({ report, fmt }: { report: UsageReportView; fmt: Formats }) {
  const { t, locale } = useI18n();
  const pct = report.cap > 0 ? Math.min(100, Math.floor((report.used / report.cap) * 100)) : 0;
  const [year, month] = report.month.split('-').map(Number);
  const resets = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(year!, month!, 1)));
  const level = report.used >= report.cap ? 'at' : pct >= 80 ? 'near' : 'ok';
  const bar = level === 'ok' ? 'bg-accent' : 'bg-danger';
  const labelId = useId();

  return (
    <Card tone={level === 'ok' ? 'default' : 'danger'}>
      <div className="flex items-baseline justify-between gap-3">
        <CardTitle id={labelId}>{t('usage.thisMonth')}</CardTitle>
        <span className="text-sm text-muted">{t('usage.plan', { plan: capitalize(report.plan) })}</span>
      </div>
      <p className="mt-3 text-2xl font-bold tracking-tight tabular-nums">{t('usage.ofCap', { used: fmt.compact(report.used), cap: fmt.compact(report.cap) })}</p>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={t('usage.percentOfCap', { pct })}
        className="mt-3 h-3 overflow-hidden rounded-full bg-subtle"
      >
        <div className={`h-full rounded-full ${bar}`} style={{ width: `${Math.max(pct, report.used > 0 ? 1 : 0)}%` }} />
      </div>
      <p className="mt-2 text-sm text-muted tabular-nums">
        {t('usage.percentOfCap', { pct })} · {t('usage.resets', { month: resets })}
      </p>
      {level !== 'ok' && (
        <p className="mt-3 flex gap-2 text-[0.9375rem] font-semibold text-danger">
          <span aria-hidden>!</span>
          {t(level === 'at' ? 'usage.atCap' : 'usage.nearCap')}
        </p>
      )}
      {report.cacheReadTokens > 0 && <p className="mt-3 text-sm text-pretty text-muted">{t('usage.cacheNote', { read: fmt.compact(report.cacheReadTokens) })}</p>}
    </Card>
  );
}

function Breakdown({
  title,
  rows,
  total,
  fmt,
}: {
  title: string;
  rows: Array<{ key: string; label: string; tokens: number; runs: number }>;
  total: number;
  fmt: Formats;
}) {
  const { t, locale } = useI18n();
  if (rows.length === 0) return null;
  const max = Math.max(...rows.map((r) => r.tokens), 1);
  return (
    <Card>
      <CardTitle>{title}</CardTitle>
      <ul className="mt-3 flex flex-col gap-3">
        {rows.map((row) => (
          <li key={row.key}>
            <div className="flex items-baseline justify-between gap-3 text-[0.9375rem]">
              <span className="min-w-0 truncate font-semibold">{row.label}</span>
              <span className="shrink-0 text-muted tabular-nums">
                {fmt.compact(row.tokens)} · {plural(t, locale, 'usage.runsCount', row.runs)}
              </span>
            </div>
            <div aria-hidden className="mt-1 h-1.5 overflow-hidden rounded-full bg-subtle">
              <div className="h-full rounded-full bg-accent/70" style={{ width: `${(row.tokens / max) * 100}%` }} />
            </div>
            <span className="sr-only">{total > 0 ? `${Math.round((row.tokens / total) * 100)}%` : ''}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

const STOP_TONE: Record<RunSummaryView['stopReason'], 'good' | 'watch' | 'bad'> = {
  finished: 'good',
  no_tool_use: 'good',
  max_iter: 'watch',
  budget: 'watch',
  deadline: 'watch',
  cancelled: 'watch',
  quota_exceeded: 'bad',
  error: 'bad',
};

function StopBadge({ reason }: { reason: RunSummaryView['stopReason'] }) {
  const { t } = useI18n();
  const tone = STOP_TONE[reason];
  const style = tone === 'good' ? 'bg-success-soft text-success' : tone === 'bad' ? 'bg-danger-soft text-danger' : 'bg-accent-soft text-accent-ink';
  return (
    <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ${style}`}>
      {tone === 'good' ? <CheckIcon size={14} /> : tone === 'bad' ? <CloseIcon size={14} /> : <span aria-hidden>!</span>}
      {t(`usage.stop.${reason}`)}
    </span>
  );
}

function RunItem({ workspaceId, run, fmt }: { workspaceId: string; run: RunSummaryView; fmt: Formats }) {
  const { t, locale } = useI18n();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const planetName = usePlanetName();
  const detail = useQuery({
    queryKey: [...usageKey(workspaceId), 'run', run.id],
    queryFn: () => api<RunDetailView>(`/api/workspaces/${workspaceId}/usage/runs/${run.id}`),
    enabled: open,
    staleTime: Infinity,
  });

  return (
    <li className="py-2">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className="flex min-h-11 w-full flex-col gap-1 rounded-lg px-1 py-2 text-left hover:bg-subtle"
      >
        <span className="flex w-full items-center justify-between gap-2">
          <span className="min-w-0 truncate font-semibold">{run.agentName || t('usage.unnamedAgent')}</span>
          <StopBadge reason={run.stopReason} />
        </span>
        <span className="text-sm text-muted tabular-nums">
          {planetName(run.planet)} · <time dateTime={run.createdAt} title={formatDateTime(run.createdAt, locale)}>{formatRelative(run.createdAt, locale)}</time> ·{' '}
          {fmt.compact(run.tokens)} {t('usage.tokens').toLowerCase()} · {plural(t, locale, 'usage.steps', run.iterations)}
        </span>
      </button>
      <div id={panelId} hidden={!open} className="px-1 pb-2">
        {open && detail.isPending && <p className="py-2 text-sm text-muted">{t('usage.loading')}</p>}
        {open && detail.isError && <p className="py-2 text-sm text-danger">{t('usage.loadError')}</p>}
        {detail.data && <RunDetailPanel run={detail.data} fmt={fmt} />}
      </div>
    </li>
  );
}

/**
 * One run as its owner reads it: what ran, for which agent and planet, when, how long, the tokens, how it
 * ended and each tool call in a sentence (run-words.ts). Nothing here is the runtime's own text, and
 * nothing is wider than the phone: long words break anywhere.
 */
export function RunDetailPanel({ run, fmt }: { run: RunDetailView; fmt: Formats }) {
  const { t, locale } = useI18n();
  const planetName = usePlanetName();
  const agent = run.agentName || t('usage.unnamedAgent');
  // A run that ends with the finish tool says what it concluded in the tool's summary, not in text.
  const output = run.outcome?.output as { summary?: unknown } | null | undefined;
  const outcome = readableOutcome(run.outcome?.finalText || (typeof output?.summary === 'string' ? output.summary : ''));
  const input = run.inputTokens + run.cacheReadTokens + run.cacheWriteTokens;
  const backend = (BACKENDS as readonly string[]).includes(run.backend) ? t(`usage.backend.${run.backend as (typeof BACKENDS)[number]}`) : run.backend;
  return (
    <div className="mt-1 flex min-w-0 flex-col gap-3 rounded-xl bg-subtle p-3 text-sm [overflow-wrap:anywhere]">
      <p className="font-semibold text-pretty">{whatRan(run, agent, t)}</p>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
        <dt className="text-muted">{t('usage.planet')}</dt>
        <dd>{planetName(run.planet)}</dd>
        <dt className="text-muted">{t('usage.when')}</dt>
        <dd>
          <time dateTime={run.createdAt}>{formatDateTime(run.createdAt, locale)}</time>
        </dd>
        <dt className="text-muted">{t('usage.duration')}</dt>
        <dd className="tabular-nums">{duration(run.durationMs, locale)}</dd>
        <dt className="text-muted">{t('usage.model')}</dt>
        <dd>{run.model && run.model !== run.backend ? `${backend} · ${run.model}` : backend}</dd>
        <dt className="text-muted">{t('usage.tokens')}</dt>
        <dd className="tabular-nums">
          {input + run.outputTokens === 0
            ? t('usage.tokensNone')
            : t('usage.tokensSplit', { input: fmt.plain(input), cacheRead: fmt.plain(run.cacheReadTokens), cacheWrite: fmt.plain(run.cacheWriteTokens), output: fmt.plain(run.outputTokens) })}
        </dd>
        <dt className="text-muted">{t('usage.howItEnded')}</dt>
        <dd className="text-pretty">{howItEnded(run, t)}</dd>
      </dl>
      {(outcome.text || outcome.omitted > 0) && (
        <div>
          <h3 className="font-semibold">{t('usage.outcome')}</h3>
          {outcome.text && <p className="mt-1 whitespace-pre-line text-pretty">{outcome.text}</p>}
          {outcome.omitted > 0 && <p className="mt-1 text-muted">{plural(t, locale, 'usage.outcomeTrimmed', outcome.omitted)}</p>}
        </div>
      )}
      {run.proposals.length > 0 && <p>{plural(t, locale, 'usage.proposals', run.proposals.length)}</p>}
      <div>
        <h3 className="font-semibold">{t('usage.toolCalls')}</h3>
        {run.toolCalls.length === 0 ? (
          <p className="mt-1 text-muted">{t('usage.noToolCalls')}</p>
        ) : (
          <ol className="mt-1 flex flex-col gap-1">
            {run.toolCalls.map((call, i) => {
              const words = toolCallWords(call, locale, t);
              return (
                <li key={i} className="flex gap-2">
                  <span className={`mt-0.5 shrink-0 ${words.ok ? 'text-success' : 'text-danger'}`}>
                    {words.ok ? <CheckIcon size={14} /> : <CloseIcon size={14} />}
                  </span>
                  <span className="min-w-0 text-pretty">
                    {words.action} — <span className={words.ok ? 'text-muted' : 'text-danger'}>{words.result}</span>
                  </span>
                </li>
              );
            })}
          </ol>
        )}
      </div>
    </div>
  );
}

function capitalize(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
