'use client';

import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { ActionState, Card, CardAction } from '@/lib/cards';
import { stateKey, titleOf } from '@/lib/cards/client';
import { useI18n } from '@/lib/i18n/client';
import { CardView } from './card-view';
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
 * A stamped card in a conversation: `<CardView>` with working buttons (at most one primary) and a
 * clock, so an approval turns expired on screen when it does. Presentational: the caller decides
 * what a click does (the conversation posts it to the card's agent).
 */
export function ResultCard({ card, state = {}, onAction, busyActionId, agentName = '', now: fixedNow }: ResultCardProps) {
  const { locale, t } = useI18n();
  const clock = useMinuteClock();
  const title = titleOf(card);

  const blocked = (a: CardAction) => {
    const s = state[stateKey(card.id, a.id)]?.status;
    return s === 'pending' || s === 'awaiting_approval' || (a.approval && s === 'done');
  };

  return (
    <CardView
      card={card}
      speech={{ locale, t }}
      now={fixedNow ?? clock}
      state={state}
      agentName={agentName}
      actions={
        onAction &&
        card.actions.map((action) => {
          const label = labelText(action.label, locale);
          // Named with its card ("Approve: Send a reminder to Giulia"): a list of cards has many "Approve"s.
          const name = title ? t('cards.actionOn', { action: label, title: labelText(title, locale) }) : label;
          return (
            <Button
              key={action.id}
              variant={action.style}
              pending={busyActionId === action.id}
              disabled={blocked(action) || (busyActionId !== undefined && busyActionId !== action.id)}
              onClick={() => onAction(action)}
              aria-label={action.approval ? `${name} (${t('cards.needsOk')})` : name}
              title={action.approval ? t('cards.needsOk') : undefined}
            >
              {label}
            </Button>
          );
        })
      }
    />
  );
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
