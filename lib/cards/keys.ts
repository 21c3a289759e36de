/** Where a button's state is kept in a card's state map. Dependency-free, so the Home can use cards without zod. */
export const stateKey = (cardId: string, actionId: string) => `${cardId}:${actionId}`;
