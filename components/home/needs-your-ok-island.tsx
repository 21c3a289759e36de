'use client';

import { useRouter } from 'next/navigation';
import { createContext, useContext, useRef, useState, type ReactNode } from 'react';
import { api, ApiRequestError, errorText } from '@/components/api/client';
import { labelText } from '@/components/cards/format';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import type { Wire } from '@/lib/api';
import type { ApprovalResult } from '@/lib/autonomy';
import type { CardAction } from '@/lib/cards';
import { useI18n } from '@/lib/i18n/client';
import { deliveryText } from './delivery';
import type { DeliveryView, SuggestionView } from './types';

/** What POST …/approve answers. */
type ApprovalResultView = Wire<ApprovalResult>;

/** How long "Approved · Undo" / "Ignored · Undo" stays in place of the card. */
const UNDO_MS = 8000;
/**
 * Cards shown before "Show more": one at a time keeps the pulse, the next decision and "Done for you"
 * on the first screen of a phone; approving one brings up the next.
 */
const PREVIEW = 1;

interface Settled {
  id: string;
  kind: 'approved' | 'ignored';
  what: string;
  /** Where the approved action's message is, once the server has said. */
  delivery?: DeliveryView | null;
  /** False once the server said nothing can take it back (a connected account already did it). */
  undoable?: boolean;
}

interface Decide {
  approve: (decisionId: string, argsHash: string, what: string) => void;
  ignore: (decisionId: string, what: string) => void;
}

const DecideContext = createContext<Decide | null>(null);

/**
 * The client side of "Needs your OK": the server-rendered approval cards, shown one at a time, with
 * what their buttons do. Approving and ignoring are optimistic: the card turns into "Approved · Undo" /
 * "Ignored · Undo" at once while the decision (an approval bound to the hash of exactly what is shown)
 * is stored, and the page data is refreshed. Undo takes the decision back on the server: the card
 * returns to the list as it was (an approved action's message is cancelled first, as it never left).
 * Errors roll back with a toast that says why.
 */
export function ApprovalList({
  workspaceId,
  timeZone,
  canDecide,
  proposals,
  suggestions,
  empty,
}: {
  workspaceId: string;
  timeZone: string;
  canDecide: boolean;
  /** Each proposal's card, rendered on the server. */
  proposals: Array<{ id: string; what: string; card: ReactNode }>;
  suggestions: SuggestionView[];
  empty: ReactNode;
}) {
  const { t, locale } = useI18n();
  const router = useRouter();
  const toast = useToast();
  const [settled, setSettled] = useState<Settled[]>([]);
  const [showAll, setShowAll] = useState(false);
  /** Per settled card: the decision's request (true once stored) and the timer that clears its line. */
  const pending = useRef(new Map<string, { stored: Promise<boolean>; timer?: ReturnType<typeof setTimeout> }>());

  const base = `/api/workspaces/${workspaceId}/decisions`;
  const forget = (id: string) => {
    clearTimeout(pending.current.get(id)?.timer);
    setSettled((all) => all.filter((s) => s.id !== id));
    pending.current.delete(id);
  };
  const fail = (id: string, error: unknown) => {
    forget(id);
    toast(t('needs.failed', { reason: errorText(error, t) }), 'error');
    if (error instanceof ApiRequestError && (error.status === 409 || error.status === 410)) router.refresh();
  };
  /** Stores a decision (an approval answers with its message's delivery); then the page refreshes and the line goes after UNDO_MS. */
  const store = (id: string, request: Promise<Pick<Settled, 'delivery' | 'undoable'> | undefined>) => {
    const stored = request.then(
      (answer) => {
        if (answer) setSettled((all) => all.map((s) => (s.id === id ? { ...s, ...answer } : s)));
        router.refresh();
        const entry = pending.current.get(id);
        if (entry) entry.timer = setTimeout(() => forget(id), UNDO_MS);
        return true;
      },
      (error: unknown) => {
        fail(id, error);
        return false;
      },
    );
    pending.current.set(id, { stored });
  };

  const decide: Decide = {
    approve(id, argsHash, what) {
      setSettled((all) => [...all, { id, kind: 'approved', what }]);
      store(id, api<ApprovalResultView>(`${base}/${id}/approve`, { body: { argsHash } }).then(({ delivery, undoable }) => ({ delivery, undoable })));
    },
    ignore(id, what) {
      setSettled((all) => [...all, { id, kind: 'ignored', what }]);
      // Stored at once, so a reload or another phone sees it ignored too; Undo brings it back.
      store(id, api(`${base}/${id}/reject`, { method: 'POST' }).then(() => undefined));
    },
  };

  async function undo(s: Settled) {
    const entry = pending.current.get(s.id);
    clearTimeout(entry?.timer);
    if (!(await entry?.stored)) return;
    try {
      const { status } = await api<{ status: 'proposed' | 'undone' }>(`${base}/${s.id}/undo`, { method: 'POST' });
      toast(t(s.kind === 'ignored' ? 'needs.restored' : status === 'proposed' ? 'needs.undone' : 'needs.undoneClosed'));
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
            <p className="flex-1 text-pretty">
              {t(s.kind === 'approved' ? 'needs.approved' : 'needs.ignored', { what: s.what })}
              {s.delivery && ` ${deliveryText(s.delivery, locale, timeZone, t)}.`}
            </p>
            {s.undoable !== false && (
              <Button variant="ghost" onClick={() => undo(s)}>
                {t('needs.undo')}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {cards.length === 0 && settled.length === 0 && (!canDecide || suggestions.length === 0) && empty}
      {cards.length > 0 && (
        <DecideContext value={decide}>
          <ul id={`${workspaceId}-proposals`} className="flex flex-col gap-3">
            {visible.map((p) => (
              <li key={p.id}>{p.card}</li>
            ))}
          </ul>
        </DecideContext>
      )}
      {cards.length > PREVIEW && (
        <Button variant="ghost" className="-mt-1 self-start" aria-expanded={showAll} aria-controls={`${workspaceId}-proposals`} onClick={() => setShowAll(!showAll)}>
          {showAll ? t('needs.showFewer') : t('needs.showMore', { count: cards.length - PREVIEW })}
        </Button>
      )}
    </div>
  );
}

/** Approve / Ignore on a proposal's card: its own buttons (the card's actions), named with what they decide. */
export function DecisionButtons({ decisionId, what, actions }: { decisionId: string; what: string; actions: CardAction[] }) {
  const { t, locale } = useI18n();
  const decide = useContext(DecideContext);
  if (!decide) return null;
  return actions.map((action) => {
    const label = labelText(action.label, locale);
    const argsHash = action.data?.argsHash;
    return (
      <Button
        key={action.id}
        variant={action.style}
        aria-label={t('cards.actionOn', { action: label, title: what })}
        onClick={() => (action.verb === 'approve' && typeof argsHash === 'string' ? decide.approve(decisionId, argsHash, what) : decide.ignore(decisionId, what))}
      >
        {label}
      </Button>
    );
  });
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
      <h3 id={`promote-${suggestion.actionType}`} className="text-[0.9375rem] font-semibold">
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
