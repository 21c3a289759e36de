/**
 * The write actions (booking reminder, waitlist offer, win-back, deal follow-up) and the message outbox.
 * Each action resolves its input to exact arguments (`prepare`), executes them after re-checking the
 * world (`execute`) and reverts what it can (`undo`). Whether an action runs, waits for an OK or does
 * nothing is lib/autonomy's call, and so are the agent tools wrapping these (lib/autonomy's
 * `actionTools`): lib/autonomy imports lib/actions, never the other way round.
 */
export { ACTION_PLANET, ACTION_TOOL, ACTION_TYPES, actionOfTool, CHANNELS, isActionType } from './types';
export type { ActionContext, ActionDefinition, ActionType, ActionWorkspace, Channel, Executed, ExecutionResult, Prepared, PreparedAction } from './types';
export { ACTIONS, ACTION_INPUTS, loadActionWorkspace } from './registry';
export { canonicalJson, hashArgs } from './hash';
export { cancelQueuedMessages, deliverDueMessages, MESSAGE_STATUSES, queueMessage, SEND_DELAY_MS, type MessageStatus } from './outbox';
export { composeMessage, dealTopic, firstName, formatWhen } from './messages';
export { outOfQuietHours, QUIET_HOURS } from './quiet-hours';
export { REMINDER_APPROVAL_LEAD_MS } from './reminder';
export { REPLY_APPROVAL_MS, REPLY_MAX, replyRefusal } from './customer-reply';
export { WIN_BACK_DAILY_CAP } from './win-back';
