import type { Tx } from '@/lib/db';
import type { Locale } from '@/lib/i18n';
import type { Planet } from '@/lib/planets';

/** The writes that reach a customer through the outbox. */
export const MESSAGE_ACTION_TYPES = ['booking_reminder', 'waitlist_offer', 'win_back', 'deal_follow_up', 'customer_reply'] as const;
export type MessageActionType = (typeof MESSAGE_ACTION_TYPES)[number];
/** The writes on a connected account (lib/connections): named as their agent tools are. */
export const CONNECTION_ACTION_TYPES = ['gmail_draft', 'gmail_send', 'calendar_create_event', 'github_create_issue', 'github_comment'] as const;
export type ConnectionActionType = (typeof CONNECTION_ACTION_TYPES)[number];

/** The write actions an agent, a rule or a flow can take, and the planet each belongs to. */
export const ACTION_TYPES = [...MESSAGE_ACTION_TYPES, ...CONNECTION_ACTION_TYPES] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const ACTION_PLANET: Record<ActionType, Planet> = {
  booking_reminder: 'booking',
  waitlist_offer: 'booking',
  win_back: 'crm',
  deal_follow_up: 'sales',
  customer_reply: 'crm',
  gmail_draft: 'crm',
  gmail_send: 'crm',
  calendar_create_event: 'booking',
  github_create_issue: 'web',
  github_comment: 'web',
};

export const isActionType = (value: string): value is ActionType => (ACTION_TYPES as readonly string[]).includes(value);

/** The agent tool that performs each action (lib/autonomy/tools.ts defines them). */
export const ACTION_TOOL: Record<ActionType, string> = {
  booking_reminder: 'send_booking_reminder',
  waitlist_offer: 'offer_freed_slot',
  win_back: 'win_back_customer',
  deal_follow_up: 'follow_up_stale_deal',
  customer_reply: 'reply_to_customer',
  gmail_draft: 'gmail_draft',
  gmail_send: 'gmail_send',
  calendar_create_event: 'calendar_create_event',
  github_create_issue: 'github_create_issue',
  github_comment: 'github_comment',
};

export const isConnectionAction = (type: ActionType): type is ConnectionActionType => (CONNECTION_ACTION_TYPES as readonly string[]).includes(type);

export const actionOfTool = (tool: string): ActionType | undefined =>
  (Object.keys(ACTION_TOOL) as ActionType[]).find((type) => ACTION_TOOL[type] === tool);

/** How a message reaches a customer (the outbox's and campaigns' channels). */
export const CHANNELS = ['sms', 'email', 'whatsapp'] as const;
export type Channel = (typeof CHANNELS)[number];

/** What an action needs to know about its workspace. */
export interface ActionWorkspace {
  id: string;
  name: string;
  timeZone: string;
  /** The language customers are written to in. */
  locale: Locale;
}

export interface ActionContext {
  workspace: ActionWorkspace;
  now: Date;
}

/**
 * An action resolved down to exactly what would run: `args` (hashed, executed as they are), the
 * display `details` (names, times, the why), the key that makes proposing it idempotent, and the
 * moment after which it may no longer be approved.
 */
export interface PreparedAction {
  type: ActionType;
  planet: Planet;
  args: Record<string, unknown>;
  details: Record<string, unknown>;
  dedupeKey: string;
  expiresAt: Date;
}

/** `reason` is a sentence for the agent (or the log): why the action does not apply. */
export type Prepared = { ok: true; action: PreparedAction } | { ok: false; reason: string };

/** What execution did: enough to show it and to undo it. */
export interface ExecutionResult {
  messageIds: string[];
  [key: string]: unknown;
}

export type Executed = { ok: true; result: ExecutionResult } | { ok: false; error: string };

/** An action carried out in the database, in the caller's transaction (what reaches a customer goes through the outbox). */
export interface ActionDefinition<Input = unknown> {
  type: MessageActionType;
  /** Resolves the input against current data: who, which channel, the exact message. */
  prepare(tx: Tx, ctx: ActionContext, input: Input): Promise<Prepared>;
  /**
   * Carries out prepared `args` after checking that the world still matches them (the appointment
   * was not cancelled or moved, the customer did not come back…). Runs in the caller's transaction.
   */
  execute(tx: Tx, ctx: ActionContext, args: Record<string, unknown>, decisionId: string): Promise<Executed>;
  /** Reverts what `execute` changed besides the messages (the caller cancels those). */
  undo(tx: Tx, ctx: ActionContext, args: Record<string, unknown>, result: ExecutionResult): Promise<void>;
}

/**
 * An action on a connected account. Its provider is called after the decision that claims it has
 * committed, outside any transaction: lib/connections takes its own (to read and refresh the token), and
 * no decision stays locked while a provider answers. A call a provider took cannot be undone from here.
 */
export interface ConnectionActionDefinition<Input = unknown> {
  type: ConnectionActionType;
  /** Resolves the input to exact arguments (and what the owner is shown), without calling the provider. */
  prepare(tx: Tx, ctx: ActionContext, input: Input): Promise<Prepared>;
  /** Calls the provider with the workspace's connection as it is now; a missing or refused connection is a failure with its reason. */
  perform(ctx: ActionContext, args: Record<string, unknown>): Promise<Executed>;
}
