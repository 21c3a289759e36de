import type { ReactNode } from 'react';
import { CardView } from '@/components/cards/card-view';
import { stampResults } from '@/lib/cards';
import { approvalResult } from '@/lib/home';
import { getI18n } from '@/lib/i18n/server';
import { describeDecision } from './format';
import { ApprovalList, DecisionButtons } from './needs-your-ok-island';
import type { DecisionView, SuggestionView } from './types';

/**
 * "Needs your OK": each proposal is an `approval` card of the card system — stamped from the
 * template library in the reader's language and the workspace's time zone, and drawn by the same
 * `<CardView>` as approval cards in conversations. The cards are server HTML; the only client code
 * is the island that approves, ignores and undoes (needs-your-ok-island.tsx).
 */
export async function NeedsYourOk({
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
  /** Shown when nothing is waiting (kept in the island so an "Approved · Undo" line outlives the last card). */
  empty: ReactNode;
}) {
  const { locale, t } = await getI18n();
  const words = proposals.map((d) => ({ ...describeDecision(d, locale, timeZone, t), channel: t(`channel.${d.channel}`) }));
  const cards = await stampResults(proposals.map((d, i) => approvalResult(d, words[i]!)));
  // Deadlines read against the moment the brief was made, like the rest of the Home.
  const now = Date.parse(generatedAt);

  return (
    <ApprovalList
      workspaceId={workspaceId}
      canDecide={canDecide}
      suggestions={suggestions}
      empty={empty}
      proposals={proposals.map((d, i) => ({
        id: d.id,
        what: words[i]!.what,
        card: (
          <CardView
            card={cards[i]!}
            speech={{ locale, t, timeZone }}
            now={now}
            actions={canDecide ? <DecisionButtons decisionId={d.id} what={words[i]!.what} actions={cards[i]!.actions} /> : undefined}
          />
        ),
      }))}
    />
  );
}
