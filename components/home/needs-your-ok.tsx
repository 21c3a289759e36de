import type { ReactNode } from 'react';
import { CardView } from '@/components/cards/card-view';
import type { Locale, Translate } from '@/lib/i18n';
import { ApprovalList, DecisionButtons } from './needs-your-ok-island';
import type { ApprovalCardView, SuggestionView } from './types';

/**
 * "Needs your OK": each proposal is an `approval` card of the card system, stamped by the page from
 * the template library and drawn by the same `<CardView>` as approval cards in conversations. The
 * cards are server HTML; the only client code is the island that approves, ignores and undoes
 * (needs-your-ok-island.tsx).
 */
export function NeedsYourOk({
  workspaceId,
  timeZone,
  canDecide,
  approvals,
  suggestions,
  generatedAt,
  locale,
  t,
  empty,
}: {
  workspaceId: string;
  timeZone: string;
  canDecide: boolean;
  approvals: ApprovalCardView[];
  suggestions: SuggestionView[];
  generatedAt: string;
  locale: Locale;
  t: Translate;
  /** Shown when nothing is waiting (kept in the island so an "Approved · Undo" line outlives the last card). */
  empty: ReactNode;
}) {
  // Deadlines read against the moment the brief was made, like the rest of the Home.
  const now = Date.parse(generatedAt);
  return (
    <ApprovalList
      workspaceId={workspaceId}
      timeZone={timeZone}
      canDecide={canDecide}
      suggestions={suggestions}
      empty={empty}
      proposals={approvals.map(({ id, what, card }) => ({
        id,
        what,
        card: (
          <CardView
            card={card}
            speech={{ locale, t, timeZone }}
            now={now}
            actions={canDecide ? <DecisionButtons decisionId={id} what={what} actions={card.actions} /> : undefined}
          />
        ),
      }))}
    />
  );
}
