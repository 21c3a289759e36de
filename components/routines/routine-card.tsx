'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { api, errorText } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { useToast } from '@/components/ui/toast';
import { formatDateTime, formatMoment, formatRelative } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import { RoutineForm } from './routine-form';
import { RunHistory } from './run-history';
import { describeSchedule } from './schedule';
import { routineRunsKey, routinesKey, type RoutineLimits, type RoutineRunView, type RoutineView } from './types';

/**
 * One routine: its name, agent, schedule in words, next and last run (with the way to the DM it was
 * written in), and for owners and admins the pause switch, Run now, Edit and Delete. Pausing and
 * deleting show at once and are put back, with the reason, if the server refuses.
 */
export function RoutineCard({
  workspaceId,
  routine,
  canManage,
  userId,
  limits,
}: {
  workspaceId: string;
  routine: RoutineView;
  canManage: boolean;
  /** The viewer: the runs are written in the creator's DM, which only the creator can open. */
  userId: string;
  limits: RoutineLimits;
}) {
  const { t, locale } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const key = routinesKey(workspaceId);
  const [editing, setEditing] = useState(false);
  const url = `/api/workspaces/${workspaceId}/routines/${routine.id}`;
  const headingId = `routine-${routine.id}`;
  const switchLabelId = `routine-${routine.id}-active`;

  const replace = (next: RoutineView) => queryClient.setQueryData<RoutineView[]>(key, (list) => (list ?? []).map((r) => (r.id === next.id ? next : r)));

  const toggle = useMutation({
    mutationFn: (enabled: boolean) => api<RoutineView>(url, { method: 'PATCH', body: { enabled } }),
    onMutate: async (enabled) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = routine;
      // The next run is the server's to work out; until it answers, a resumed routine says so.
      replace({ ...routine, enabled, nextRunAt: null });
      return { before };
    },
    onSuccess: (saved) => {
      replace(saved);
      toast(t(saved.enabled ? 'routines.resumed' : 'routines.pausedToast', { name: saved.name }));
    },
    onError: (error, _enabled, context) => {
      if (context) replace(context.before);
      toast(t('routines.failed', { reason: errorText(error, t) }), 'error');
    },
  });

  const run = useMutation({
    mutationFn: () => api<RoutineRunView>(`${url}/run`, { method: 'POST' }),
    onSuccess: (lastRun) => {
      queryClient.setQueryData<RoutineView[]>(key, (list) => (list ?? []).map((r) => (r.id === routine.id ? { ...r, lastRun } : r)));
      void queryClient.invalidateQueries({ queryKey: routineRunsKey(workspaceId, routine.id) });
      if (lastRun.status === 'failed') toast(t('routines.ranFailed', { name: routine.name, error: lastRun.error ?? t('errors.generic') }), 'error');
      else toast(t('routines.ranSent', { name: routine.name, agent: routine.agent.name }));
    },
    onError: (error) => toast(t('routines.ranFailed', { name: routine.name, error: errorText(error, t) }), 'error'),
  });

  const remove = useMutation({
    mutationFn: () => api<{ deleted: boolean }>(url, { method: 'DELETE' }),
    onMutate: async () => {
      await queryClient.cancelQueries({ queryKey: key });
      const list = queryClient.getQueryData<RoutineView[]>(key) ?? [];
      const index = list.findIndex((r) => r.id === routine.id);
      queryClient.setQueryData<RoutineView[]>(key, list.filter((r) => r.id !== routine.id));
      return { index };
    },
    onSuccess: () => toast(t('routines.deleted', { name: routine.name })),
    onError: (error, _vars, context) => {
      queryClient.setQueryData<RoutineView[]>(key, (list = []) => {
        if (list.some((r) => r.id === routine.id)) return list;
        const at = context && context.index >= 0 ? Math.min(context.index, list.length) : list.length;
        return [...list.slice(0, at), routine, ...list.slice(at)];
      });
      toast(t('routines.failed', { reason: errorText(error, t) }), 'error');
    },
  });

  if (editing) {
    return (
      <article aria-labelledby={headingId} className="rounded-2xl border border-line bg-surface p-5 shadow-card sm:p-6">
        <h3 id={headingId} className="mb-1 text-lg font-semibold text-balance break-words">
          {t('routines.editTitle', { name: routine.name })}
        </h3>
        <p className="mb-4 text-sm text-muted">{t('routines.for', { agent: routine.agent.name })}</p>
        <RoutineForm
          workspaceId={workspaceId}
          idPrefix={`edit-${routine.id}`}
          limits={limits}
          timeZone={routine.timeZone}
          routine={routine}
          onSaved={(saved) => {
            replace(saved);
            setEditing(false);
            toast(t('routines.saved', { name: saved.name }));
          }}
          onCancel={() => setEditing(false)}
        />
      </article>
    );
  }

  const last = routine.lastRun;
  const lastWhen = last ? formatRelative(last.createdAt, locale) : '';
  const isCreator = routine.createdBy === userId;
  const canOpen = last?.conversationId && isCreator;

  return (
    <article aria-labelledby={headingId} className="rounded-2xl border border-line bg-surface p-5 shadow-card sm:p-6">
      <div className="flex items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-0.5">
          <h3 id={headingId} className="text-lg font-semibold text-balance break-words">
            {routine.name}
          </h3>
          <p className="text-[0.9375rem]">
            <span className="font-semibold">{routine.agent.name}</span> · {describeSchedule(routine.schedule, t, locale)}
          </p>
        </div>
        {canManage ? (
          <button
            type="button"
            role="switch"
            aria-checked={routine.enabled}
            aria-labelledby={`${switchLabelId} ${headingId}`}
            disabled={toggle.isPending}
            onClick={() => toggle.mutate(!routine.enabled)}
            className="-my-1 -mr-2 inline-flex min-h-11 shrink-0 items-center gap-2 rounded-xl px-2 text-sm font-semibold hover:bg-subtle disabled:opacity-60"
          >
            <span id={switchLabelId}>{t('routines.active')}</span>
            <span aria-hidden className={`relative inline-flex h-6 w-10 items-center rounded-full border transition-colors ${routine.enabled ? 'border-accent bg-accent' : 'border-line-strong bg-subtle'}`}>
              <span
                className={`size-4.5 rounded-full shadow-card transition-transform motion-reduce:transition-none ${
                  routine.enabled ? 'translate-x-[1.125rem] bg-on-accent' : 'translate-x-0.5 bg-line-strong'
                }`}
              />
            </span>
          </button>
        ) : (
          <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-sm font-semibold ${routine.enabled ? 'bg-success-soft text-success' : 'bg-subtle text-muted'}`}>
            {routine.enabled ? t('routines.active') : t('routines.pausedBadge')}
          </span>
        )}
      </div>

      <p className="mt-3 line-clamp-3 rounded-xl bg-subtle px-3 py-2 text-[0.9375rem] text-pretty break-words whitespace-pre-line">
        <span className="sr-only">{t('routines.instructionOf')}: </span>
        {routine.instruction}
      </p>

      <ul className="mt-3 flex flex-col gap-1 text-sm text-muted">
        <li>
          {!routine.enabled ? (
            t('routines.paused')
          ) : routine.nextRunAt ? (
            <time dateTime={routine.nextRunAt} title={formatDateTime(routine.nextRunAt, locale, routine.timeZone)} suppressHydrationWarning>
              {t('routines.nextRun', { relative: formatRelative(routine.nextRunAt, locale), when: formatMoment(routine.nextRunAt, locale, routine.timeZone) })}
            </time>
          ) : (
            t('routines.nextRunUnknown')
          )}
        </li>
        <li className={last?.status === 'failed' ? 'font-medium text-danger' : undefined}>
          {last ? (
            <>
              <span suppressHydrationWarning>
                {last.status === 'failed'
                  ? t('routines.lastRun.failed', { relative: lastWhen, error: last.error ?? t('errors.generic') })
                  : t(last.status === 'sent' ? 'routines.lastRun.sent' : 'routines.lastRun.pending', { relative: lastWhen })}
              </span>
              {last.manual && <> {t('routines.lastRunManual')}</>}
              {canOpen && (
                <>
                  {' '}
                  <Link
                    href={`/w/${workspaceId}/chat/${last.conversationId}`}
                    aria-label={t('routines.openInChatNamed', { name: routine.name })}
                    className="-my-2 inline-flex min-h-11 items-center font-semibold text-accent-ink underline pointer-fine:min-h-0"
                  >
                    {t('routines.openInChat')}
                  </Link>
                </>
              )}
            </>
          ) : (
            t('routines.neverRun')
          )}
        </li>
      </ul>

      <RunHistory workspaceId={workspaceId} routine={routine} canOpen={isCreator} max={limits.historyRuns} />

      {canManage && (
        <div className="mt-4 flex flex-wrap items-start gap-2">
          <Button variant="secondary" aria-label={t('routines.runNowNamed', { name: routine.name })} pending={run.isPending} pendingLabel={t('routines.running')} onClick={() => run.mutate()}>
            {t('routines.runNow')}
          </Button>
          <Button variant="ghost" aria-label={t('routines.editNamed', { name: routine.name })} onClick={() => setEditing(true)}>
            {t('routines.edit')}
          </Button>
          <ConfirmButton
            label={t('routines.deleteNamed', { name: routine.name })}
            question={t('routines.deleteQuestion', { name: routine.name })}
            confirmLabel={t('routines.delete')}
            onConfirm={() => remove.mutate()}
            pending={remove.isPending}
          >
            {t('routines.delete')}
          </ConfirmButton>
        </div>
      )}
    </article>
  );
}
