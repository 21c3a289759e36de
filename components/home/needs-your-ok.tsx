'use client';

import { useRouter } from 'next/navigation';
import { useRef, useState, type ReactNode } from 'react';
import { api, ApiRequestError, errorText } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';
import { describeDecision, until } from './format';
import type { DecisionView, SuggestionView } from './types';

/** How long "Approved · Undo" / "Ignored · Undo" stays in place of the card. */
const UNDO_MS = 8000;
/** An ignore is sent only after this, so its undo costs nothing. */
const IGNORE_DELAY_MS = 5000;
/**
 * Cards shown before "Show more": one at a time keeps the pulse, the next decision and "Done for you"
 * on the first screen of a phone; approving one brings up the next.
 */
const PREVIEW = 1;

interface Settled {
  id: string;
  kind: 'approved' | 'ignored';
  what: string;
}

/**
 * The approval cards. Approving is optimistic: the card turns into "Approved · Undo" at once, the
 * approval (bound to the hash of exactly what is shown) goes to the server, and the page data is
 * refreshed so the action appears under Done. Undo cancels the queued message. Ignoring waits a few
 * seconds before it is sent, so its undo only has to put the card back. Errors roll back with a
 * toast that says why.
 */
export function NeedsYourOk({
  workspaceId,
  timeZone,
  canDecide,
  proposals,
  suggestions,
  generatedAt,
  empty,
}: {
  workspaceId: string;
  timeZone: string;
  canDecide: boolean;
  proposals: DecisionView[];
  suggestions: SuggestionView[];
  generatedAt: string;
  /** Shown when nothing is waiting (kept in here so an "Approved · Undo" line outlives the last card). */
  empty: ReactNode;
}) {
  const { t, locale } = useI18n();
  const router = useRouter();
  const toast = useToast();
  const [settled, setSettled] = useState<Settled[]>([]);
  const [showAll, setShowAll] = useState(false);
  const pending = useRef(new Map<string, { approval?: Promise<unknown>; ignoreTimer?: ReturnType<typeof setTimeout> }>());
  // Expiries read relative to when the brief was made: the server and the browser render the same text.
  const now = new Date(generatedAt);

  const base = `/api/workspaces/${workspaceId}/decisions`;
  const forget = (id: string) => {
    setSettled((all) => all.filter((s) => s.id !== id));
    pending.current.delete(id);
  };
  const fail = (id: string, error: unknown) => {
    forget(id);
    toast(t('needs.failed', { reason: errorText(error, t) }), 'error');
    if (error instanceof ApiRequestError && (error.status === 409 || error.status === 410)) router.refresh();
  };

  function approve(d: DecisionView, what: string) {
    setSettled((all) => [...all, { id: d.id, kind: 'approved', what }]);
    const approval = api(`${base}/${d.id}/approve`, { body: { argsHash: d.argsHash } }).then(
      () => {
        router.refresh();
        setTimeout(() => forget(d.id), UNDO_MS);
      },
      (error: unknown) => fail(d.id, error),
    );
    pending.current.set(d.id, { approval });
  }

  function ignore(d: DecisionView, what: string) {
    setSettled((all) => [...all, { id: d.id, kind: 'ignored', what }]);
    const ignoreTimer = setTimeout(() => {
      api(`${base}/${d.id}/reject`, { method: 'POST' }).then(
        () => {
          forget(d.id);
          router.refresh();
        },
        (error: unknown) => fail(d.id, error),
      );
    }, IGNORE_DELAY_MS);
    pending.current.set(d.id, { ignoreTimer });
  }

  async function undo(s: Settled) {
    const entry = pending.current.get(s.id);
    if (s.kind === 'ignored') {
      clearTimeout(entry?.ignoreTimer);
      forget(s.id);
      toast(t('needs.restored'));
      return;
    }
    await entry?.approval;
    try {
      await api(`${base}/${s.id}/undo`, { method: 'POST' });
      toast(t('needs.undone'));
    } catch (error) {
      toast(t('needs.failed', { reason: errorText(error, t) }), 'error');
    }
    forget(s.id);
    router.refresh();
  }

  const hidden = new Set(settled.map((s) => s.id));
  const cards = proposals.filter((p) => !hidden.has(p.id));
  const visible = showAll ? cards : cards.slice(0, PREVIEW);

  return (
    <div className="flex flex-col gap-3">
      {canDecide && suggestions.map((s) => <Promotion key={s.actionType} workspaceId={workspaceId} suggestion={s} />)}
      <ul aria-live="polite" className="flex flex-col gap-2 empty:hidden">
        {settled.map((s) => (
          <li key={s.id} className="flex min-h-14 items-center gap-3 rounded-2xl border border-line bg-surface px-4 py-2 text-[0.9375rem] shadow-card">
            <p className="flex-1 text-pretty">{t(s.kind === 'approved' ? 'needs.approved' : 'needs.ignored', { what: s.what })}</p>
            <Button variant="ghost" onClick={() => undo(s)}>
              {t('needs.undo')}
            </Button>
          </li>
        ))}
      </ul>
      {cards.length === 0 && settled.length === 0 && (!canDecide || suggestions.length === 0) && empty}
      {cards.length > 0 && (
        <ul id={`${workspaceId}-proposals`} className="flex flex-col gap-3">
          {visible.map((d) => {
            const { what, why } = describeDecision(d, locale, timeZone, t);
            return (
              <li key={d.id}>
                <article aria-label={what} className="rounded-2xl border border-line bg-surface p-4 shadow-card sm:p-5">
                  <h3 className="font-semibold text-pretty">{what}</h3>
                  <p className="mt-1 text-sm text-pretty text-muted">
                    <span className="sr-only">{t('needs.why')}: </span>
                    {why}
                  </p>
                  <figure className="mt-3 rounded-xl border-l-4 border-accent/60 bg-subtle px-3 py-2">
                    <figcaption className="text-xs font-semibold text-muted">
                      {t('needs.messageTo', { channel: t(`channel.${d.channel}`), to: d.to })}
                    </figcaption>
                    <blockquote className="mt-1 text-[0.9375rem] text-pretty break-words whitespace-pre-line">{d.message}</blockquote>
                  </figure>
                  <div className="mt-3 flex flex-wrap items-center gap-2">
                    {canDecide && (
                      <>
                        <Button onClick={() => approve(d, what)} aria-label={t('needs.approveNamed', { what })}>
                          {t('needs.approve')}
                        </Button>
                        <Button variant="secondary" onClick={() => ignore(d, what)} aria-label={t('needs.ignoreNamed', { what })}>
                          {t('needs.ignore')}
                        </Button>
                      </>
                    )}
                    <span className="ml-auto text-xs text-muted">{t('needs.expires', { when: until(d.expiresAt, locale, now) })}</span>
                  </div>
                </article>
              </li>
            );
          })}
        </ul>
      )}
      {cards.length > PREVIEW && (
        <Button variant="ghost" className="-mt-1 self-start" aria-expanded={showAll} aria-controls={`${workspaceId}-proposals`} onClick={() => setShowAll(!showAll)}>
          {showAll ? t('needs.showFewer') : t('needs.showMore', { count: cards.length - PREVIEW })}
        </Button>
      )}
    </div>
  );
}

/** "Do this automatically from now on?": shown after the third approval of a kind; never switches by itself. */
export function Promotion({ workspaceId, suggestion }: { workspaceId: string; suggestion: SuggestionView }) {
  const { t } = useI18n();
  const router = useRouter();
  const toast = useToast();
  const [busy, setBusy] = useState<'accept' | 'dismiss' | null>(null);

  async function answer(choice: 'accept' | 'dismiss') {
    setBusy(choice);
    try {
      await api(`/api/workspaces/${workspaceId}/autonomy`, { method: 'PATCH', body: { actionType: suggestion.actionType, suggestion: choice } });
      toast(t(choice === 'accept' ? 'promote.accepted' : 'promote.dismissed'));
      router.refresh();
    } catch (error) {
      toast(t('needs.failed', { reason: errorText(error, t) }), 'error');
      setBusy(null);
    }
  }

  return (
    <article aria-labelledby={`promote-${suggestion.actionType}`} className="rounded-2xl border-2 border-accent/50 bg-surface p-4 shadow-card sm:p-5">
      <h3 id={`promote-${suggestion.actionType}`} className="font-semibold">
        {t('promote.title')}
      </h3>
      <p className="mt-1 text-[0.9375rem] text-pretty text-muted">{t(`promote.body.${suggestion.actionType}`, { count: suggestion.approvals })}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button onClick={() => answer('accept')} pending={busy === 'accept'} disabled={busy !== null}>
          {t('promote.accept')}
        </Button>
        <Button variant="secondary" onClick={() => answer('dismiss')} pending={busy === 'dismiss'} disabled={busy !== null}>
          {t('promote.dismiss')}
        </Button>
      </div>
    </article>
  );
}
