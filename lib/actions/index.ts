/**
 * The write actions (booking reminder, waitlist offer, win-back, deal follow-up, customer reply, and the
 * writes on a connected account: Gmail, Calendar, GitHub) and the message outbox.
 * Each action resolves its input to exact arguments (`prepare`), executes them after re-checking the
 * world (`execute`) and reverts what it can (`undo`); a connected-account write calls its provider
 * (`perform`) once its decision is committed, and cannot be reverted. Whether an action runs, waits for an OK or does
 * nothing is lib/autonomy's call, and so are the agent tools wrapping these (lib/autonomy's
 * `actionTools`): lib/autonomy imports lib/actions, never the other way round.
 */
export { ACTION_PLANET, ACTION_TOOL, ACTION_TYPES, actionOfTool, CHANNELS, CONNECTION_ACTION_TYPES, isActionType, isConnectionAction, MESSAGE_ACTION_TYPES } from './types';
export type {
  ActionContext,
  ActionDefinition,
  ActionType,
  ActionWorkspace,
  Channel,
  ConnectionActionDefinition,
  ConnectionActionType,
  Executed,
  ExecutionResult,
  MessageActionType,
  Prepared,
  PreparedAction,
} from './types';
export { ACTION_CONNECTION, CONNECTION_ACTIONS, CONNECTION_APPROVAL_MS, CONNECTION_TEXT_MAX } from './connection-writes';
export { ACTIONS, ACTION_INPUTS, loadActionWorkspace } from './registry';
export { canonicalJson, hashArgs } from './hash';
export { cancelQueuedMessages, deliverDueMessages, MESSAGE_STATUSES, queueMessage, SEND_DELAY_MS, type MessageStatus } from './outbox';
export { composeMessage, dealTopic, firstName, formatWhen } from './messages';
export { outOfQuietHours, QUIET_HOURS } from './quiet-hours';
export { REMINDER_APPROVAL_LEAD_MS } from './reminder';
export { REPLY_APPROVAL_MS, REPLY_MAX, replyRefusal } from './customer-reply';
export { WIN_BACK_DAILY_CAP } from './win-back';
