'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import type { Wire } from '@/lib/api';
import { plural } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import { money } from '@/lib/planets/client';
import type { DealChange, DealView, PipelineBoard } from '@/lib/sales';
import { CallScript, CallScriptEditor, SalesTeam } from './sales-team';

type Board = Wire<PipelineBoard>;
type Deal = Wire<DealView>;

const boardKey = (workspaceId: string, owner: string) => ['pipeline', workspaceId, owner] as const;

/**
 * The pipeline as columns of stages, one beside the other. On a phone each column is most of the
 * screen wide and the row snaps sideways from stage to stage; on a wider screen several show at once.
 * Every card moves its deal with a plain select (no dragging needed) and marks it won or lost.
 */
export function PipelineBoardView({ workspaceId, initialBoard, closedDays }: { workspaceId: string; initialBoard: Board; closedDays: number }) {
  const { t, locale } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  // '' is everyone, 'none' the deals nobody owns, else a person's id (the API's `owner`).
  const [owner, setOwner] = useState('');
  const board = useQuery({
    queryKey: boardKey(workspaceId, owner),
    queryFn: () => api<Board>(`/api/workspaces/${workspaceId}/deals${owner ? `?owner=${owner}` : ''}`),
    initialData: owner === '' ? initialBoard : undefined,
  });
  const data = board.data ?? initialBoard;

  const change = useMutation({
    mutationFn: ({ deal, to }: { deal: Deal; to: DealChange }) => api<Deal>(`/api/workspaces/${workspaceId}/deals/${deal.id}`, { method: 'PATCH', body: to }),
    onSuccess: (_changed, { deal, to }) => {
      if ('stageId' in to) toast(t('pipeline.moved', { stage: data.stages.find((s) => s.id === to.stageId)?.name ?? '' }));
      else toast(t(to.status === 'won' ? 'pipeline.markedWon' : to.status === 'lost' ? 'pipeline.markedLost' : 'pipeline.reopened', { title: deal.title }));
    },
    onError: (error) => toast(errorText(error, t), 'error'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['pipeline', workspaceId] }),
  });
  const busy = (deal: Deal) => change.isPending && change.variables?.deal.id === deal.id;

  const ownerName = (deal: Deal) => deal.ownerName ?? t('pipeline.unassigned');

  if (data.stages.length === 0) return <p className="rounded-2xl border border-dashed border-line-strong/50 px-4 py-5 text-muted">{t('pipeline.noStages')}</p>;

  return (
    <div className="flex flex-col gap-6">
      <SalesTeam workspaceId={workspaceId} onShowOwner={setOwner} />
      <CallScriptEditor workspaceId={workspaceId} />
      <div className="flex max-w-sm flex-col gap-1.5">
        <label htmlFor="pipeline-owner" className="text-sm font-semibold">
          {t('pipeline.owner')}
        </label>
        <select
          id="pipeline-owner"
          value={owner}
          onChange={(event) => setOwner(event.target.value)}
          className="min-h-11 w-full rounded-xl border border-line-strong bg-surface px-3.5 text-base text-ink"
        >
          <option value="">{t('pipeline.ownerEveryone')}</option>
          {data.owners.map((o) => (
            <option key={o.userId} value={o.userId}>
              {o.name}
            </option>
          ))}
          <option value="none">{t('pipeline.ownerNone')}</option>
        </select>
      </div>

      <section aria-labelledby="pipeline-stages" className="flex flex-col gap-2">
        <h2 id="pipeline-stages" className="px-1 text-lg font-semibold">
          {t('pipeline.stages')}
        </h2>
        <p className="px-1 text-sm text-muted sm:hidden">{t('pipeline.swipeHint')}</p>
        {data.open.length === 0 && <p className="px-1 text-[0.9375rem] text-muted">{t('pipeline.empty')}</p>}
        <div
          role="region"
          aria-labelledby="pipeline-stages"
          tabIndex={0}
          className="-mx-4 flex snap-x snap-mandatory gap-3 overflow-x-auto px-4 pb-3 sm:mx-0 sm:px-0"
          data-testid="pipeline-columns"
        >
          {data.stages.map((stage) => {
            const deals = data.open.filter((d) => d.stageId === stage.id);
            const total = deals.reduce((sum, d) => sum + d.valueCents, 0);
            return (
              <section
                key={stage.id}
                aria-labelledby={`stage-${stage.id}`}
                data-stage-id={stage.id}
                className="flex w-[85%] max-w-80 shrink-0 snap-start flex-col gap-2 rounded-2xl bg-subtle p-3 sm:w-72"
              >
                <header className="flex items-baseline justify-between gap-2 px-1">
                  <h3 id={`stage-${stage.id}`} className="font-semibold">
                    {stage.name}
                  </h3>
                  <span className="text-sm text-muted tabular-nums">{t('pipeline.stageSummary', { count: deals.length, value: money(total, locale) })}</span>
                </header>
                {deals.length === 0 ? (
                  <p className="px-1 py-2 text-sm text-muted">{t('pipeline.stageEmpty')}</p>
                ) : (
                  <ul className="flex flex-col gap-2">
                    {deals.map((deal) => (
                      <li key={deal.id} data-deal-id={deal.id} data-owner-id={deal.ownerUserId ?? undefined} className="flex flex-col gap-2 rounded-xl border border-line bg-surface p-3 shadow-card">
                        <div className="flex items-baseline justify-between gap-2">
                          <h4 className="min-w-0 text-[0.9375rem] font-semibold text-pretty">{deal.title}</h4>
                          <span className="shrink-0 font-semibold tabular-nums">{money(deal.valueCents, locale)}</span>
                        </div>
                        <p className="text-sm text-muted">
                          {ownerName(deal)} · {plural(t, locale, 'pipeline.age', deal.ageDays)}
                        </p>
                        <div className="flex flex-col gap-1">
                          <label htmlFor={`deal-stage-${deal.id}`} className="text-xs font-semibold text-muted">
                            {t('pipeline.moveTo')}
                          </label>
                          <select
                            id={`deal-stage-${deal.id}`}
                            value={deal.stageId}
                            disabled={busy(deal)}
                            onChange={(event) => change.mutate({ deal, to: { stageId: event.target.value } })}
                            className="min-h-11 w-full rounded-xl border border-line-strong bg-surface px-3 text-base text-ink disabled:opacity-60"
                          >
                            {data.stages.map((s) => (
                              <option key={s.id} value={s.id}>
                                {s.name}
                              </option>
                            ))}
                          </select>
                        </div>
                        <CallScript workspaceId={workspaceId} dealId={deal.id} title={deal.title} />
                        <div className="grid grid-cols-2 gap-2">
                          <Button variant="secondary" disabled={busy(deal)} onClick={() => change.mutate({ deal, to: { status: 'won' } })}>
                            {t('pipeline.markWon')}
                          </Button>
                          <Button variant="secondary" disabled={busy(deal)} onClick={() => change.mutate({ deal, to: { status: 'lost' } })}>
                            {t('pipeline.markLost')}
                          </Button>
                        </div>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            );
          })}
        </div>
      </section>

      <section aria-labelledby="pipeline-closed" className="flex flex-col gap-2">
        <h2 id="pipeline-closed" className="px-1 text-lg font-semibold">
          {t('pipeline.closed', { days: closedDays })}
        </h2>
        {data.closed.length === 0 ? (
          <p className="px-1 text-[0.9375rem] text-muted">{t('pipeline.closedEmpty', { days: closedDays })}</p>
        ) : (
          <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface shadow-card">
            {data.closed.map((deal) => (
              <li key={deal.id} data-deal-id={deal.id} className="flex items-center gap-3 px-4 py-3">
                <div className="flex min-w-0 flex-1 flex-col">
                  <span className="text-[0.9375rem] text-pretty">{deal.title}</span>
                  <span className="text-sm text-muted">
                    {t(deal.status === 'won' ? 'pipeline.won' : 'pipeline.lost')} · {money(deal.valueCents, locale)} · {ownerName(deal)}
                  </span>
                </div>
                <Button variant="ghost" disabled={busy(deal)} onClick={() => change.mutate({ deal, to: { status: 'open' } })}>
                  {t('pipeline.reopen')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
