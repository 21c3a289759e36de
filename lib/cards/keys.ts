import type { Card } from './card';
import type { Label } from './layout';

// Dependency-free (types only), so client code such as the Home can use cards without zod.

/** Where a button's state is kept in a card's state map. */
export const stateKey = (cardId: string, actionId: string) => `${cardId}:${actionId}`;

/** The card's title block, which names it (its article's accessible name, its buttons' context, its summary). */
export function titleOf(card: Card): Label | undefined {
  const title = card.blocks.find((b) => b.kind === 'title');
  return title?.kind === 'title' ? title.text : undefined;
}
