import type { Wire } from '@/lib/api';
import type { DecisionView as Decision, PromotionSuggestion } from '@/lib/autonomy';
import type { Card } from '@/lib/cards';
import type { DailyBrief, PlanetSummary, RoutineRunDone } from '@/lib/home';
import type { Metric } from '@/lib/planets';

/**
 * The Home's data as the browser receives it: lib/home's types through the serializer (`Wire`). Shared
 * by the server components and the client islands.
 */
export type { HomePrefs, SectionId, Trend } from '@/lib/home';
export type { Health, Planet } from '@/lib/planets';

export type MetricView = Wire<Metric>;
export type RoutineRunDoneView = Wire<RoutineRunDone>;
export type DecisionView = Wire<Decision>;
/** A message's place in the outbox (lib/actions/outbox.ts): `sent` and `delivered` only from a provider. */
export type DeliveryView = NonNullable<DecisionView['delivery']>;
export type PlanetSummaryView = Wire<PlanetSummary>;
export type SuggestionView = Wire<PromotionSuggestion>;
export type DailyBriefView = Wire<DailyBrief>;

/** A waiting proposal as the Home shows it: its approval card, stamped on the server. */
export interface ApprovalCardView {
  id: string;
  what: string;
  card: Card;
}
