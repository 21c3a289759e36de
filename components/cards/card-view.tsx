import type { ReactNode } from 'react';
import type { ActionState, Card } from '@/lib/cards';
import { stateKey, titleOf } from '@/lib/cards/client';
import { formatDateTime, formatMoment, formatRelative } from '@/lib/i18n';
import { CardBlocks, type Speech } from './blocks';
import { labelText } from './format';

export interface CardViewProps {
  card: Card;
  speech: Speech;
  /** Milliseconds since the epoch: when an approval counts as expired. */
  now: number;
  /** The latest state of each button, keyed `cardId:actionId` (a message's `payload.actionState`). */
  state?: Record<string, ActionState>;
  /** Who acts on clicks, for the status lines ("Sent to Nova…"). */
  agentName?: string;
  /** The buttons; left out once an approval is decided or expired. */
  actions?: ReactNode;
}

/**
 * One stamped card as everyone sees it: its blocks, an approval's deadline, what became of each
 * click, and a slot for its buttons. No hooks, so it renders on the server (the Home's approval
 * cards, with a small client island for their buttons) and inside `<ResultCard>` in conversations.
 */
export function CardView({ card, speech, now, state = {}, agentName = '', actions }: CardViewProps) {
  const { locale, t, timeZone } = speech;
  const isApproval = card.type === 'approval';
  const expiresAt = card.expiresAt ? Date.parse(card.expiresAt) : undefined;
  const states = card.actions.flatMap((a) => (state[stateKey(card.id, a.id)] ? [{ action: a, state: state[stateKey(card.id, a.id)]! }] : []));
  const decided = isApproval && states.length > 0;
  const expired = isApproval && !decided && expiresAt !== undefined && expiresAt <= now;

  return (
    <article className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-4 shadow-card sm:p-5" aria-label={labelText(titleOf(card) ?? card.type, locale)}>
      {card.blocks.length ? <CardBlocks blocks={card.blocks} speech={speech} /> : <p className="text-muted">{t('cards.unreadable')}</p>}

      {isApproval && expiresAt !== undefined && !decided && (
        <p className={`text-sm ${expired ? 'font-semibold text-danger' : 'text-muted'}`} suppressHydrationWarning>
          <time dateTime={card.expiresAt} title={formatDateTime(card.expiresAt!, locale, timeZone)}>
            {expired ? t('cards.expired', { when: formatRelative(card.expiresAt!, locale, now) }) : t('cards.expiresIn', { when: formatMoment(card.expiresAt!, locale, timeZone, now) })}
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

      {actions && card.actions.length > 0 && !decided && !expired && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </article>
  );
}

