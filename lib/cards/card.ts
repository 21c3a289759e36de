import { z } from 'zod';
import { ARTIFACT_KINDS } from '@/lib/artifacts/client';
import { blockSchema, labelSchema, type Block, type Label } from './layout';
import { stateKey } from './keys';
import type { ResultType } from './types';

export { stateKey };

/**
 * A stamped card as a message keeps it (`payload.cards[]`), the buttons on it, and the state of its
 * buttons (`payload.actionState`). Client-safe: the renderer parses payloads with these schemas.
 */

const slug = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'api.cards.slug');
const verb = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'api.cards.verb');

/** A button as an agent asks for it. */
export const actionInputSchema = z.object({
  id: slug.optional(),
  label: z.union([z.string().trim().min(1).max(40), z.object({ en: z.string().min(1).max(40), it: z.string().min(1).max(40) })]),
  verb,
  /** Handed back to the agent with the click. */
  data: z
    .record(z.string(), z.unknown())
    .refine((d) => JSON.stringify(d).length <= 4000, 'api.cards.actionDataTooLong')
    .optional(),
  style: z.enum(['primary', 'secondary', 'danger']).default('secondary'),
  /** Ask a person's OK before the agent hears of the click (always on for the verbs in APPROVAL_VERBS). */
  requiresApproval: z.boolean().optional(),
});
export type ActionInput = z.input<typeof actionInputSchema>;

export const actionSchema = z.object({
  id: slug,
  label: labelSchema,
  verb,
  data: z.record(z.string(), z.unknown()).optional(),
  style: z.enum(['primary', 'secondary', 'danger']),
  approval: z.boolean(),
});
export type CardAction = z.infer<typeof actionSchema>;

/**
 * Verbs that act outside Multiverbe or cannot be taken back: a click on one never reaches the agent
 * before an owner or admin approved it. An agent can add to this (`requiresApproval`), never remove.
 */
export const APPROVAL_VERBS = new Set(['send', 'send_email', 'delete', 'cancel', 'pay', 'refund', 'book', 'purchase', 'publish', 'post']);

/** The verbs of approval cards: their buttons decide (the card's own clicks never need approval). */
export const DECISION_VERBS = new Set(['approve', 'reject']);

/** The buttons a type's cards come with when the agent names none. */
export const defaultActions: Partial<Record<ResultType, ActionInput[]>> = {
  email: [
    { id: 'send', label: { en: 'Send', it: 'Invia' }, verb: 'send', style: 'primary' },
    { id: 'save_draft', label: { en: 'Save draft', it: 'Salva bozza' }, verb: 'save_draft' },
  ],
  approval: [
    { id: 'approve', label: { en: 'Approve', it: 'Approva' }, verb: 'approve', style: 'primary' },
    { id: 'reject', label: { en: 'Ignore', it: 'Ignora' }, verb: 'reject' },
  ],
};

export const cardSchema = z.object({
  v: z.literal(1),
  /** Unique within the message (`c1`, `c2`…). */
  id: slug,
  type: z.string().max(40),
  /** The library template it was stamped with; null when the default layout was used. */
  template: z.object({ name: z.string(), version: z.number().int() }).nullable(),
  /** Why no template was used: the one named is unknown or retired, or the type is unknown. */
  fallback: z.enum(['type_default', 'generic']).optional(),
  blocks: z.array(blockSchema),
  actions: z.array(actionSchema).max(4),
  /** The validated data (for agents and exports; the screen shows only blocks). */
  data: z.record(z.string(), z.unknown()),
  /** Approval cards: the OK counts until then. */
  expiresAt: z.string().optional(),
  /** An approval card the server made for a gated click: that click's id (card_actions). */
  approvalFor: z.string().uuid().optional(),
});
export type Card = z.infer<typeof cardSchema>;

export const ACTION_STATUSES = ['awaiting_approval', 'pending', 'done', 'failed', 'rejected', 'expired'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

/**
 * The latest click of a button, as the card shows it. A message keeps a list of these (not a map:
 * the API's camelCase serializer rewrites object keys, never values), read into a map keyed
 * `cardId:actionId`.
 */
export const actionStateSchema = z.object({
  cardId: z.string(),
  actionId: z.string(),
  eventId: z.string(),
  status: z.enum(ACTION_STATUSES),
  outcome: z.string().max(500).optional(),
  at: z.string(),
});
export type ActionState = z.infer<typeof actionStateSchema>;

/** The click handed to an agent: the `cardEvent` of the person's message it is delivered with. */
export interface CardEvent {
  eventId: string;
  messageId: string;
  cardId: string;
  cardType: string;
  actionId: string;
  verb: string;
  data: Record<string, unknown>;
  /** The card's own data, so an agent that keeps no state knows what the click was about. */
  cardData: Record<string, unknown>;
  approvedBy?: string;
}

/** An artifact chip (`payload.artifacts[]`). */
export const artifactChipSchema = z.object({
  id: z.string().uuid(),
  kind: z.enum(ARTIFACT_KINDS),
  title: z.string(),
  version: z.number().int(),
});
export type ArtifactChip = z.infer<typeof artifactChipSchema>;

/**
 * What a message carries for the card system, read defensively: a malformed card is dropped, a
 * malformed block inside a good card is dropped, so one bad value never blanks a message.
 */
export function readAttachments(payload: unknown): {
  cards: Card[];
  artifacts: ArtifactChip[];
  actionState: Record<string, ActionState>;
  cardEvent?: { cardType: string; verb: string; label?: Label };
} {
  const p = payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
  const cards = (Array.isArray(p.cards) ? p.cards : []).flatMap((raw) => {
    if (!raw || typeof raw !== 'object') return [];
    const blocks = (Array.isArray((raw as { blocks?: unknown }).blocks) ? (raw as { blocks: unknown[] }).blocks : []).flatMap((b) => {
      const parsed = blockSchema.safeParse(b);
      return parsed.success ? [parsed.data as Block] : [];
    });
    const parsed = cardSchema.safeParse({ ...raw, blocks });
    return parsed.success ? [parsed.data] : [];
  });
  const artifacts = (Array.isArray(p.artifacts) ? p.artifacts : []).flatMap((a) => {
    const parsed = artifactChipSchema.safeParse(a);
    return parsed.success ? [parsed.data] : [];
  });
  const actionState: Record<string, ActionState> = {};
  for (const value of Array.isArray(p.actionState) ? p.actionState : []) {
    const parsed = actionStateSchema.safeParse(value);
    if (parsed.success) actionState[stateKey(parsed.data.cardId, parsed.data.actionId)] = parsed.data;
  }
  const event = p.cardEvent as Record<string, unknown> | undefined;
  const cardEvent =
    event && typeof event.cardType === 'string' && typeof event.verb === 'string'
      ? { cardType: event.cardType, verb: event.verb, ...(labelSchema.safeParse(event.label).success ? { label: event.label as Label } : {}) }
      : undefined;
  return { cards, artifacts, actionState, ...(cardEvent ? { cardEvent } : {}) };
}
