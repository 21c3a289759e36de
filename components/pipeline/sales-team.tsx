'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import type { Wire } from '@/lib/api';
import { useI18n } from '@/lib/i18n/client';
import { money } from '@/lib/planets/client';
import type { CommissionView, DealScript, StageScript, PaceStatus, QuotaView, SalesOverview, SalesPeriod, WhatIf } from '@/lib/sales';

type Overview = Wire<SalesOverview>;

// Colour is never the only signal: every badge also says its state in words.
const PACE_STYLE: Record<PaceStatus, string> = {
  met: 'bg-emerald-100 text-emerald-900',
  on_pace: 'bg-sky-100 text-sky-900',
  behind: 'bg-amber-100 text-amber-950',
};

function QuotaLine({ quota }: { quota: Wire<QuotaView> | null }) {
  const { t, locale } = useI18n();
  if (!quota) return <span className="text-sm text-muted">{t('sales.noQuota')}</span>;
  const amount = (n: number) => (quota.metric === 'won_value' ? money(n, locale) : String(n));
  const { pace } = quota;
  return (
    <span className="flex flex-wrap items-center gap-2 text-sm">
      <span className={`rounded-full px-2 py-0.5 font-semibold ${PACE_STYLE[pace.status]}`} data-pace={pace.status}>
        {t(`sales.pace.${pace.status}`)}
      </span>
      <span>{t('sales.attainment', { pct: pace.attainmentPct, actual: amount(pace.actual), target: amount(pace.target) })}</span>
      {pace.neededPerWeek > 0 && <span className="text-muted">{t('sales.needed', { amount: amount(pace.neededPerWeek) })}</span>}
    </span>
  );
}

/** The leaderboard of the month or quarter; "Show deals" filters the board below by that person. */
export function SalesTeam({ workspaceId, onShowOwner }: { workspaceId: string; onShowOwner: (userId: string) => void }) {
  const { t, locale } = useI18n();
  const [period, setPeriod] = useState<SalesPeriod>('month');
  const overview = useQuery({
    queryKey: ['sales-overview', workspaceId, period],
    queryFn: () => api<Overview>(`/api/workspaces/${workspaceId}/sales/overview?period=${period}`),
  });
  const data = overview.data;
  return (
    <section aria-labelledby="sales-leaderboard" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3 px-1">
        <h2 id="sales-leaderboard" className="text-lg font-semibold">
          {t('sales.leaderboard')}
        </h2>
        <div className="flex flex-col gap-1.5">
          <label htmlFor="sales-period" className="text-sm font-semibold">
            {t('sales.period')}
          </label>
          <select
            id="sales-period"
            value={period}
            onChange={(e) => setPeriod(e.target.value as SalesPeriod)}
            className="min-h-11 rounded-xl border border-line-strong bg-surface px-3.5 text-base text-ink"
          >
            <option value="month">{t('sales.period.month')}</option>
            <option value="quarter">{t('sales.period.quarter')}</option>
          </select>
        </div>
      </div>
      {overview.isError && <p role="alert">{errorText(overview.error, t)}</p>}
      {!data ? (
        <p className="px-1 text-muted">{t('sales.loading')}</p>
      ) : (
        <>
          <div className="flex flex-col gap-1 rounded-2xl border border-line bg-surface p-4 shadow-card">
            <h3 className="font-semibold">{t('sales.team', { from: data.period.startsOn })}</h3>
            <p className="text-sm">{t('sales.figures', { revenue: money(data.team.revenueCents, locale), won: data.team.wonCount, pipeline: money(data.team.pipelineCents, locale), touched: data.team.dealsTouched })}</p>
            <QuotaLine quota={data.team.quota} />
          </div>
          <ol className="flex flex-col gap-2" aria-label={t('sales.leaderboard')}>
            {data.people.map((p, i) => (
              <li key={p.userId} data-person-id={p.userId} className="flex flex-col gap-1.5 rounded-2xl border border-line bg-surface p-4 shadow-card">
                <div className="flex items-baseline justify-between gap-2">
                  <h3 className="font-semibold">
                    {i + 1}. {p.name}
                  </h3>
                  <span className="font-semibold tabular-nums">{money(p.revenueCents, locale)}</span>
                </div>
                <p className="text-sm text-muted">{t('sales.personFigures', { won: p.wonCount, pipeline: money(p.pipelineCents, locale), touched: p.dealsTouched })}</p>
                <QuotaLine quota={p.quota} />
                <div>
                  <Button variant="secondary" onClick={() => onShowOwner(p.userId)} aria-label={t('sales.showDealsOf', { name: p.name })}>
                    {t('sales.showDeals')}
                  </Button>
                </div>
              </li>
            ))}
          </ol>
          <Commissions workspaceId={workspaceId} data={data} />
        </>
      )}
    </section>
  );
}

function Commissions({ workspaceId, data }: { workspaceId: string; data: Overview }) {
  const { t, locale } = useI18n();
  const [picked, setPicked] = useState<string[]>([]);
  const whatIf = useMutation({
    mutationFn: (dealIds: string[]) => api<Wire<WhatIf>>(`/api/workspaces/${workspaceId}/sales/commission/what-if`, { method: 'POST', body: { dealIds } }),
  });
  const mine = useQuery({
    queryKey: ['sales-my-deals', workspaceId],
    queryFn: () => api<{ open: Array<{ id: string; title: string; valueCents: number; ownerUserId: string | null }> }>(`/api/workspaces/${workspaceId}/deals`),
  });
  const own = data.canManage ? null : (data.commissions[0] ?? null);
  const ownDeals = own ? (mine.data?.open ?? []).filter((d) => d.ownerUserId === own.userId) : [];
  const line = (c: Wire<CommissionView>) =>
    t(c.commission.capped ? 'sales.commissionCapped' : 'sales.commissionEarned', {
      earned: money(c.commission.earnedCents, locale),
      cap: c.capCents === null ? '' : money(c.capCents, locale),
      plan: c.planName,
      from: c.period.startsOn,
    });
  return (
    <section aria-labelledby="sales-commission" className="flex flex-col gap-2">
      <h2 id="sales-commission" className="px-1 text-lg font-semibold">
        {data.canManage ? t('sales.commissions') : t('sales.yourCommission')}
      </h2>
      {data.commissions.length === 0 ? (
        <p className="px-1 text-muted">{t('sales.noPlan')}</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label={data.canManage ? t('sales.commissions') : t('sales.yourCommission')}>
          {data.commissions.map((c) => (
            <li key={c.userId} data-commission-of={c.userId} className="rounded-2xl border border-line bg-surface p-4 shadow-card">
              <p className="font-semibold">{c.name}</p>
              <p className="text-sm">{line(c)}</p>
            </li>
          ))}
        </ul>
      )}
      {own && ownDeals.length > 0 && (
        <form
          className="flex flex-col gap-2 rounded-2xl border border-line bg-surface p-4 shadow-card"
          onSubmit={(e) => {
            e.preventDefault();
            if (picked.length) whatIf.mutate(picked);
          }}
        >
          <fieldset className="flex flex-col gap-1.5">
            <legend className="font-semibold">{t('sales.whatIf')}</legend>
            {ownDeals.map((d) => (
              <label key={d.id} className="flex min-h-11 items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-5"
                  checked={picked.includes(d.id)}
                  onChange={(e) => setPicked((p) => (e.target.checked ? [...p, d.id] : p.filter((x) => x !== d.id)))}
                />
                {d.title} · {money(d.valueCents, locale)}
              </label>
            ))}
          </fieldset>
          <div>
            <Button type="submit" disabled={picked.length === 0 || whatIf.isPending}>
              {t('sales.estimate')}
            </Button>
          </div>
          <p role="status" className="text-sm">
            {whatIf.data && t('sales.whatIfResult', { earned: money(whatIf.data.ifClosed.commission.earnedCents, locale), gain: money(whatIf.data.gainCents, locale) })}
            {whatIf.isError && errorText(whatIf.error, t)}
          </p>
        </form>
      )}
    </section>
  );
}

/** A deal's call script, opened from its card: read on the phone, with the customer's number to tap. */
export function CallScript({ workspaceId, dealId, title }: { workspaceId: string; dealId: string; title: string }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const script = useQuery({
    queryKey: ['deal-script', workspaceId, dealId],
    queryFn: () => api<Wire<DealScript>>(`/api/workspaces/${workspaceId}/sales/deals/${dealId}/script`),
    enabled: open,
  });
  return (
    <div className="flex flex-col gap-2">
      <Button variant="ghost" aria-expanded={open} onClick={() => setOpen((o) => !o)} aria-label={t('sales.callScriptOf', { title })}>
        {open ? t('sales.hideScript') : t('sales.callScript')}
      </Button>
      {open && (
        <div role="region" aria-label={t('sales.callScriptOf', { title })} className="flex flex-col gap-2 rounded-xl bg-subtle p-3 text-[0.9375rem]">
          {!script.data ? (
            <p className="text-muted">{script.isError ? errorText(script.error, t) : t('sales.loading')}</p>
          ) : (
            <>
              <p className="whitespace-pre-line">{script.data.script ?? t('sales.noScript', { stage: script.data.stage })}</p>
              {script.data.customerPhone && (
                <a className="min-h-11 font-semibold underline" href={`tel:${script.data.customerPhone.replace(/\s+/g, '')}`}>
                  {t('sales.call', { name: script.data.customerName ?? '' })}
                </a>
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
}

/** The owner's editor of the call scripts, one per stage. */
export function CallScriptEditor({ workspaceId }: { workspaceId: string }) {
  const { t } = useI18n();
  const scripts = useQuery({
    queryKey: ['call-scripts', workspaceId],
    queryFn: () => api<Wire<{ stages: StageScript[]; can_manage: boolean }>>(`/api/workspaces/${workspaceId}/sales/scripts`),
  });
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: ({ stageId, body }: { stageId: string; body: string }) => api(`/api/workspaces/${workspaceId}/sales/scripts/${stageId}`, { method: 'PUT', body: { body } }),
    onSuccess: () => scripts.refetch(),
  });
  if (!scripts.data?.canManage) return null;
  return (
    <details className="rounded-2xl border border-line bg-surface p-4 shadow-card">
      <summary className="min-h-11 cursor-pointer font-semibold">{t('sales.editScripts')}</summary>
      <p className="mt-2 text-sm text-muted">{t('sales.placeholders')}</p>
      <div className="mt-3 flex flex-col gap-4">
        {scripts.data.stages.map((s) => (
          <form
            key={s.stageId}
            className="flex flex-col gap-1.5"
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate({ stageId: s.stageId, body: drafts[s.stageId] ?? s.body ?? '' });
            }}
          >
            <label htmlFor={`script-${s.stageId}`} className="text-sm font-semibold">
              {s.stage}
            </label>
            <textarea
              id={`script-${s.stageId}`}
              rows={4}
              maxLength={4000}
              value={drafts[s.stageId] ?? s.body ?? ''}
              onChange={(e) => setDrafts((d) => ({ ...d, [s.stageId]: e.target.value }))}
              className="rounded-xl border border-line-strong bg-surface p-3 text-base text-ink"
            />
            <div>
              <Button type="submit" variant="secondary" disabled={save.isPending}>
                {t('sales.saveScript', { stage: s.stage })}
              </Button>
            </div>
          </form>
        ))}
        <p role="status" className="text-sm">
          {save.isSuccess && t('sales.scriptSaved')}
          {save.isError && errorText(save.error, t)}
        </p>
      </div>
    </details>
  );
}
