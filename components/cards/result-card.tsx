'use client';

import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { ActionState, Card, CardAction } from '@/lib/cards/card';
import { stateKey } from '@/lib/cards/keys';
import { formatDateTime, formatRelative } from '@/lib/i18n/format';
import { useI18n } from '@/lib/i18n/client';
import { CardBlocks } from './blocks';
import { labelText } from './format';

export interface ResultCardProps {
  card: Card;
  /** The latest state of each button, keyed `cardId:actionId` (a message's `payload.actionState`). */
  state?: Record<string, ActionState>;
  /** Omit to show the card without buttons. */
  onAction?: (action: CardAction) => void;
  /** The button whose click is on its way. */
  busyActionId?: string;
  /** Who acts on clicks, for the status lines ("Sent to Nova…"). */
  agentName?: string;
  /** Milliseconds since the epoch; lets a list share one clock (and tests fix it). */
  now?: number;
}

/**
 * One stamped card: its blocks, its buttons (at most one primary), and what became of each click.
 * Presentational: the caller decides what a click does (the conversation posts it to the card's agent;
 * the Home approves or ignores a proposal). Approval cards show their deadline and, once decided or
 * expired, the decision instead of buttons.
 */
export function ResultCard({ card, state = {}, onAction, busyActionId, agentName = '', now: fixedNow }: ResultCardProps) {
  const { locale, t } = useI18n();
  const clock = useMinuteClock();
  const now = fixedNow ?? clock;
  const isApproval = card.type === 'approval';
  const expiresAt = card.expiresAt ? Date.parse(card.expiresAt) : undefined;
  const states = card.actions.flatMap((a) => (state[stateKey(card.id, a.id)] ? [{ action: a, state: state[stateKey(card.id, a.id)]! }] : []));
  const decided = isApproval && states.length > 0;
  const expired = isApproval && !decided && expiresAt !== undefined && expiresAt <= now;
  const closed = decided || expired;

  const blocked = (a: CardAction) => {
    const s = state[stateKey(card.id, a.id)]?.status;
    return s === 'pending' || s === 'awaiting_approval' || (a.approval && s === 'done');
  };

  return (
    <article className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-4 shadow-card sm:p-5" aria-label={labelText(titleOf(card) ?? card.type, locale)}>
      {card.blocks.length ? <CardBlocks blocks={card.blocks} /> : <p className="text-muted">{t('cards.unreadable')}</p>}

      {isApproval && expiresAt !== undefined && !decided && (
        <p className={`text-sm ${expired ? 'font-semibold text-danger' : 'text-muted'}`} suppressHydrationWarning>
          <time dateTime={card.expiresAt} title={formatDateTime(card.expiresAt!, locale)}>
            {expired ? t('cards.expired', { when: formatRelative(card.expiresAt!, locale, now) }) : t('cards.expiresIn', { when: formatDateTime(card.expiresAt!, locale) })}
          </time>
        </p>
      )}

      {states.length > 0 && (
        <ul className="flex flex-col gap-1" aria-live="polite">
          {states.map(({ action, state: s }) => (
            <li key={action.id} className={`text-[0.9375rem] ${s.status === 'failed' || s.status === 'rejected' || s.status === 'expired' ? 'text-danger' : s.status === 'done' ? 'text-success' : 'text-muted'}`}>
              <span className="font-semibold">{labelText(action.label, locale)}: </span>
              {s.status === 'done' || s.status === 'failed' ? s.outcome || t(`cards.status.${s.status}`) : t(`cards.status.${s.status}`, { agent: agentName })}
            </li>
          ))}
        </ul>
      )}

      {onAction && card.actions.length > 0 && !closed && (
        <div className="flex flex-wrap gap-2">
          {card.actions.map((action) => (
            <Button
              key={action.id}
              variant={action.style === 'primary' ? 'primary' : action.style === 'danger' ? 'danger' : 'secondary'}
              pending={busyActionId === action.id}
              disabled={blocked(action) || (busyActionId !== undefined && busyActionId !== action.id)}
              onClick={() => onAction(action)}
              title={action.approval ? t('cards.needsOk') : undefined}
            >
              {labelText(action.label, locale)}
              {action.approval && <span className="sr-only"> ({t('cards.needsOk')})</span>}
            </Button>
          ))}
        </div>
      )}
    </article>
  );
}

function titleOf(card: Card) {
  const title = card.blocks.find((b) => b.kind === 'title');
  return title?.kind === 'title' ? title.text : undefined;
}

/** The time, moved on every minute: an approval turns expired on screen when it does. */
function useMinuteClock(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
