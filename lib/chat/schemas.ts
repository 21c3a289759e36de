import { z } from 'zod';
import { CONVERSATION_VISIBILITIES, DELIVERY_OUTCOMES } from './kinds';
import { MAX_BODY } from './pipeline';

/** Request shapes of the conversation and agent endpoints (routes parse with these). */

const uuid = z.string().uuid();
const ids = z.array(uuid).max(100).default([]);
const body = z.string().max(MAX_BODY, 'api.field.maxChars').refine((b) => b.trim().length > 0, 'api.field.writeSomething');
const connectionId = z.string().trim().min(1).max(100);

export const workspaceQuerySchema = z.object({ workspaceId: uuid });

export const createConversationSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('channel'),
    workspaceId: uuid,
    name: z.string().trim().min(1, 'api.chat.channelNameRequired').max(80),
    visibility: z.enum(CONVERSATION_VISIBILITIES).default('public'),
    userIds: ids,
    agentIds: ids,
  }),
  z.object({ kind: z.literal('dm'), workspaceId: uuid, userIds: ids, agentIds: ids }),
]);

export const addMembersSchema = z
  .object({ userIds: ids, agentIds: ids })
  .refine((v) => v.userIds.length + v.agentIds.length > 0, 'api.chat.nameSomeone');

export const historyQuerySchema = z.object({
  /** Messages before this seq (the `nextCursor` of the previous page); the latest page when absent. */
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const messageBodySchema = z.object({ body });
export const reactionSchema = z.object({ emoji: z.string().trim().min(1).max(32).regex(/^\S+$/, 'api.chat.oneEmoji') });
export const markReadSchema = z.object({ seq: z.number().int().nonnegative().optional() });
export const resolveSchema = z.object({ summary: body });

export const claimSchema = z.object({
  connectionId,
  limit: z.number().int().min(1).max(100).default(10),
  leaseSeconds: z.number().int().min(5).max(3600).default(60),
});
export const extendLeaseSchema = z.object({
  connectionId,
  leaseSeconds: z.number().int().min(5).max(3600).default(180),
});
export const completeSchema = z.object({
  connectionId,
  outcome: z.enum(DELIVERY_OUTCOMES),
  done: z.boolean().default(false),
});
export const agentReplySchema = z.object({
  body,
  /** The delivery this answers: completed with the reply, atomically. */
  replyTo: z.object({ deliveryId: uuid, connectionId }).optional(),
  done: z.boolean().default(false),
});
export const heartbeatSchema = z.object({ connectionId });
