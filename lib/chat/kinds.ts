/**
 * The chat's enumerations, one list each: the types derive from them, and the tables' check
 * constraints list the same values (test/check-constraints.test.ts compares them). No imports, so
 * client code may read them too.
 */

/** `customer`: a customer's SMS, WhatsApp and email replies, one conversation per customer (lib/inbound). */
export const CONVERSATION_KINDS = ['channel', 'dm', 'thread', 'delegation', 'customer'] as const;
export type ConversationKind = (typeof CONVERSATION_KINDS)[number];

export const CONVERSATION_VISIBILITIES = ['public', 'private'] as const;
export type ConversationVisibility = (typeof CONVERSATION_VISIBILITIES)[number];

/** A side thread's or a delegation's state (channels and DMs have none). */
export const CONVERSATION_STATUSES = ['open', 'resolved', 'abandoned'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/** Who wrote a message (an artifact's version, a comment…), or is a member. */
export const AUTHOR_KINDS = ['person', 'agent'] as const;
export type AuthorKind = (typeof AUTHOR_KINDS)[number];

/** Who wrote a message: a customer too, in a customer conversation (never a member, never an artifact's author). */
export const MESSAGE_AUTHOR_KINDS = [...AUTHOR_KINDS, 'customer'] as const;
export type MessageAuthorKind = (typeof MESSAGE_AUTHOR_KINDS)[number];

/** A delivery's life: `waiting` behind an earlier turn of its message, `pending` to claim, `claimed` under a lease, then `done` or `skipped`. */
export const DELIVERY_STATUSES = ['waiting', 'pending', 'claimed', 'done', 'skipped'] as const;

/** How an agent completes a delivery: it answered (later turns are dropped), or passed to the next. */
export const DELIVERY_OUTCOMES = ['replied', 'passed'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];
