import Link from 'next/link';
import { plural, formatMoment, type Locale, type Translate } from '@/lib/i18n';
import { ChevronRightIcon } from '@/components/ui/icons';
import { CopyMessage } from './copy-message';
import { copyable } from './delivery';
import { decisionState, describeDecision } from './format';
import type { DailyBriefView } from './types';
import { UndoButton } from './undo-button';

/**
 * "Prepared 3 reminders", "Prepared 1 offer of a freed slot": one group per kind of action, each a
 * native disclosure (no script) listing the individual actions with where each message is, and undo
 * while it is queued; then "Ran 2 routines", each with the way to the agent's answer for whoever is in
 * that DM. While a message waits for want of an SMS or email provider, a line above says so.
 */
export function DoneForYou({
  groups,
  routineRuns,
  workspaceId,
  timeZone,
  canDecide,
  locale,
  t,
}: {
  groups: DailyBriefView['done'];
  routineRuns: DailyBriefView['routineRuns'];
  workspaceId: string;
  timeZone: string;
  canDecide: boolean;
  locale: Locale;
  t: Translate;
}) {
  const waiting = groups.some((group) => group.items.some((item) => item.delivery && copyable(item.delivery)));
  return (
    <>
      {waiting && (
        <p className="px-1 text-sm text-pretty text-muted">
          {t('done.notConnected')}{' '}
          {canDecide && (
            <Link href={`/w/${workspaceId}/settings/messages`} className="font-semibold text-accent-ink underline underline-offset-2">
              {t('delivery.connect')}
            </Link>
          )}
        </p>
      )}
      <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface shadow-card">
        {groups.map((group) => (
          <li key={group.actionType}>
            <details className="group">
              <DoneSummary count={group.count} label={plural(t, locale, `done.${group.actionType}`, group.count)} />
              <ul className="flex flex-col gap-1 px-4 pb-3 sm:px-5">
                {group.items.map((item) => {
                  const { what, subject } = describeDecision(item, locale, timeZone, t);
                  return (
                    <li key={item.id} className="flex items-center gap-3 rounded-xl bg-subtle px-3 py-2">
                      <span className="flex min-w-0 flex-1 flex-col">
                        <span className="text-[0.9375rem] text-pretty">{what}</span>
                        <span className="text-xs text-muted">
                          {decisionState(item, locale, timeZone, t)} · {t(item.tier === 'auto' ? 'done.auto' : 'done.approved')}
                        </span>
                      </span>
                      {item.delivery && copyable(item.delivery) && item.message && <CopyMessage text={item.message} name={subject} labels={{ copy: t('delivery.copy'), copied: t('delivery.copied') }} />}
                      {canDecide && item.undoable && <UndoButton workspaceId={workspaceId} decisionId={item.id} name={subject} />}
                    </li>
                  );
                })}
                {group.count > group.items.length && <li className="px-3 text-sm text-muted">{t('done.more', { count: group.count - group.items.length })}</li>}
              </ul>
            </details>
          </li>
        ))}
        {routineRuns.count > 0 && (
          <li>
            <details className="group">
              <DoneSummary count={routineRuns.count} label={plural(t, locale, 'done.routines', routineRuns.count)} />
              <ul className="flex flex-col gap-1 px-4 pb-3 sm:px-5">
                {routineRuns.items.map((run) => (
                  <li key={run.id} className="flex items-center gap-3 rounded-xl bg-subtle px-3 py-2">
                    <span className="flex min-w-0 flex-1 flex-col">
                      <span className="text-[0.9375rem] text-pretty">{t('done.routineRun', { routine: run.routineName, agent: run.agentName })}</span>
                      <span className="text-xs text-muted">{t('done.routineRan', { when: formatMoment(run.ranAt, locale, timeZone) })}</span>
                    </span>
                    {run.conversationId && (
                      <Link
                        href={`/w/${workspaceId}/chat/${run.conversationId}`}
                        prefetch={false}
                        aria-label={t('done.routineAnswerNamed', { routine: run.routineName })}
                        className="inline-flex min-h-11 shrink-0 items-center text-sm font-semibold text-accent-ink underline"
                      >
                        {t('done.routineAnswer')}
                      </Link>
                    )}
                  </li>
                ))}
                {routineRuns.count > routineRuns.items.length && (
                  <li className="px-3 text-sm text-muted">{t('done.more', { count: routineRuns.count - routineRuns.items.length })}</li>
                )}
              </ul>
            </details>
          </li>
        )}
      </ul>
    </>
  );
}

function DoneSummary({ count, label }: { count: number; label: string }) {
  return (
    <summary className="flex min-h-14 cursor-pointer list-none items-center gap-3 px-4 py-3 hover:bg-subtle sm:px-5 [&::-webkit-details-marker]:hidden">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-success-soft text-sm font-semibold text-success" aria-hidden>
        {count}
      </span>
      <span className="flex-1 text-[0.9375rem] font-semibold">{label}</span>
      <ChevronRightIcon className="shrink-0 text-muted transition-transform group-open:rotate-90" />
    </summary>
  );
}
