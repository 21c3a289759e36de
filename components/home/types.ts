import type { ActionType, MessageStatus } from '@/lib/actions';
import type { Card } from '@/lib/cards/card';

/**
 * The Home's data as the browser receives it (the API's camelCase JSON): dates are strings. Shared by
 * the server components and the client islands.
 */
export type Health = 'good' | 'watch' | 'act';
export type Trend = 'up' | 'down' | 'steady' | 'unknown';
export type Planet = 'booking' | 'crm' | 'sales' | 'content' | 'marketing' | 'web';
export type SectionId = 'needs' | 'done' | 'planets';

export interface MetricView {
  value: number | null;
  unit: 'count' | 'ratio' | 'cents' | 'days';
  previous?: number | null;
  changePct?: number | null;
  benchmark?: number;
}

export interface RoutineRunDoneView {
  id: string;
  routineId: string;
  routineName: string;
  agentName: string;
  ranAt: string;
  /** Null when the reader is not in the DM it was written in. */
  conversationId: string | null;
}

export interface DecisionView {
  id: string;
  planet: Planet;
  actionType: ActionType;
  tier: 'propose' | 'auto';
  status: 'proposed' | 'approved' | 'rejected' | 'executed' | 'failed' | 'expired' | 'undone';
  argsHash: string;
  channel: 'sms' | 'email' | 'whatsapp';
  to: string;
  message: string;
  details: Record<string, unknown>;
  expiresAt: string;
  createdAt: string;
  decidedAt: string | null;
  executedAt: string | null;
  error: string | null;
  undoable: boolean;
  delivery: DeliveryView | null;
}

/** A message's place in the outbox (lib/actions/outbox.ts): `sent` and `delivered` only from a provider. */
export interface DeliveryView {
  status: MessageStatus;
  sendAfter: string;
  sentAt: string | null;
  deliveredAt: string | null;
}

export interface HomePrefs {
  sections: SectionId[];
  pinnedSections: SectionId[];
  planets: Planet[];
  pinnedPlanets: Planet[];
}

export interface PlanetSummaryView {
  planet: Planet;
  health: Health;
  trend: Trend;
  changePct: number | null;
  headline: { metric: string; value: number | null; unit: MetricView['unit'] };
  autonomy: 'off' | 'propose' | 'auto';
  paused: boolean;
  newInsights: number;
  hasData: boolean;
}

export interface SuggestionView {
  actionType: ActionType;
  planet: Planet;
  approvals: number;
}

export interface DailyBriefView {
  workspaceId: string;
  timeZone: string;
  role: 'owner' | 'admin' | 'member';
  canDecide: boolean;
  generatedAt: string;
  pulse: {
    bookingsToday: number;
    newLeads7d: number;
    revenueThisWeekCents: number;
    revenueLastWeekCents: number;
    revenueChangePct: number | null;
    bookedThisWeekCents: number;
  };
  paused: boolean;
  proposals: DecisionView[];
  proposalsTotal: number;
  done: Array<{ actionType: ActionType; planet: Planet; count: number; items: DecisionView[] }>;
  routineRuns: { count: number; items: RoutineRunDoneView[] };
  planets: PlanetSummaryView[];
  suggestions: SuggestionView[];
  prefs: HomePrefs;
}

/** A waiting proposal as the Home shows it: its approval card, stamped on the server. */
export interface ApprovalCardView {
  id: string;
  what: string;
  card: Card;
}
