'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { api, errorText } from '@/components/api/client';
import { formatDateTime, formatMoment } from '@/lib/i18n';
import { useI18n } from '@/lib/i18n/client';
import { routineRunsKey, type RoutineRunView, type RoutineView } from './types';

/**
 * A routine's latest runs, fetched when the reader opens them: when each ran, whether it was sent (or
 * why not), which ones were run by hand, and the way to the message for the one who can open the DM.
 */
export function RunHistory({ workspaceId, routine, canOpen, max }: { workspaceId: string; routine: RoutineView; canOpen: boolean; max: number }) {
  const { t, locale } = useI18n();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const runs = useQuery({
    queryKey: routineRunsKey(workspaceId, routine.id),
    queryFn: () => api<RoutineRunView[]>(`/api/workspaces/${workspaceId}/routines/${routine.id}/runs`),
    enabled: open,
  });

  return (
    <div className="mt-2">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
        className="-ml-1 inline-flex min-h-11 items-center rounded-lg px-1 text-sm font-semibold text-accent-ink underline-offset-4 hover:underline"
      >
        {t(open ? 'routines.historyHide' : 'routines.historyShow')}
      </button>
      {open && (
        <div id={listId} className="text-sm">
          {runs.isPending ? (
            <p role="status" className="text-muted">
              {t('routines.historyLoading')}
            </p>
          ) : runs.isError ? (
            <p role="alert" className="text-danger">
              {t('routines.historyFailed', { reason: errorText(runs.error, t) })}{' '}
              <button type="button" onClick={() => runs.refetch()} className="inline-flex min-h-11 items-center font-semibold underline pointer-fine:min-h-0">
                {t('routines.historyRetry')}
              </button>
            </p>
          ) : runs.data.length === 0 ? (
            <p className="text-muted">{t('routines.neverRun')}</p>
          ) : (
            <>
              <ol aria-label={t('routines.historyOf', { name: routine.name })} className="flex flex-col divide-y divide-line rounded-xl border border-line">
                {runs.data.map((run) => {
                  const when = formatMoment(run.createdAt, locale, routine.timeZone);
                  return (
                    <li key={run.id} className="flex items-center justify-between gap-3 px-3 py-1.5">
                      <p className="min-w-0 py-1">
                        <time dateTime={run.createdAt} title={formatDateTime(run.createdAt, locale, routine.timeZone)} className="font-medium" suppressHydrationWarning>
                          {when}
                        </time>{' '}
                        <span className={run.status === 'failed' ? 'font-medium text-danger' : 'text-muted'}>
                          {run.status === 'failed' ? t('routines.run.failed', { error: run.error ?? t('errors.generic') }) : t(run.status === 'sent' ? 'routines.run.sent' : 'routines.run.pending')}
                          {run.manual && ` · ${t('routines.run.manual')}`}
                        </span>
                      </p>
                      {canOpen && run.conversationId && (
                        <Link
                          href={`/w/${workspaceId}/chat/${run.conversationId}`}
                          aria-label={t('routines.openRunInChat', { when })}
                          className="inline-flex min-h-11 shrink-0 items-center font-semibold text-accent-ink underline pointer-fine:min-h-8"
                        >
                          {t('routines.openInChat')}
                        </Link>
                      )}
                    </li>
                  );
                })}
              </ol>
              {runs.data.length >= max && <p className="mt-1 text-muted">{t('routines.historyLimit', { max })}</p>}
            </>
          )}
        </div>
      )}
    </div>
  );
}
