export {
  addMembers,
  createConversation,
  getConversation,
  listConversations,
  markRead,
} from './conversations';
export type { Conversation, ConversationMember } from './conversations';
export { AUTHOR_KINDS, CONVERSATION_KINDS, MESSAGE_AUTHOR_KINDS, CONVERSATION_STATUSES, CONVERSATION_VISIBILITIES, DELIVERY_OUTCOMES, DELIVERY_STATUSES } from './kinds';
export type { AuthorKind, ConversationKind, MessageAuthorKind, ConversationStatus, ConversationVisibility, DeliveryOutcome } from './kinds';
export { announceClaimableDeliveries, claimDeliveries, completeDelivery, deliveryQueue, extendLease } from './deliveries';
export { delegate, delegateSchema, relayResult, relaySchema } from './delegation';
export { seedChatDemo } from './demo';
export type { ClaimOptions, ClaimedDelivery, CompleteOptions } from './deliveries';
export { streamAgentEvents, streamWorkspaceEvents } from './events';
export {
  addReaction,
  deleteMessage,
  editMessage,
  listMessages,
  removeReaction,
} from './messages';
export type { Message } from './messages';
export { extractSideThreads, findMentions } from './parse';
export type { Mentionable, SideThreadBlock } from './parse';
export { LOOP_LIMITS, MAX_BODY, abandonStalledThreads, creatorOf, requireConversationAccess, resolveThread, sendMessage, writeCustomerMessage, writeMessageIn } from './pipeline';
export type { Actor, SendOptions, SentMessage } from './pipeline';
export { decideTurns } from './turns';
export type { Turn, TurnCandidate, TurnInput, TurnReason } from './turns';
export {
  addMembersSchema,
  agentReplySchema,
  claimSchema,
  completeSchema,
  createConversationSchema,
  extendLeaseSchema,
  heartbeatSchema,
  historyQuerySchema,
  markReadSchema,
  messageBodySchema,
  reactionSchema,
  resolveSchema,
  workspaceQuerySchema,
} from './schemas';
