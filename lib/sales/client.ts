/** What of lib/sales any bundle may import, the browser's too: no server code behind it. */

/** What a territory's rule may look at on a deal or a lead. */
export const TERRITORY_FIELDS = ['postcode', 'city', 'sector', 'source'] as const;
export type TerritoryField = (typeof TERRITORY_FIELDS)[number];
