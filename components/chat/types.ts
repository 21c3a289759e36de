import type { Wire } from '@/lib/api';
import type { Agent } from '@/lib/agents';
import type { Conversation, ConversationMember, Message } from '@/lib/chat';

/**
 * Chat data as client components see it: what the REST API sends (lib/chat's types through the one
 * serializer, `Wire`). Server pages pass lib results through `serialize` to get the same shape.
 */

export type MemberView = Wire<ConversationMember>;

export type ConversationView = Wire<Conversation>;

export type ThreadStatus = NonNullable<Conversation['status']>;

export type MessageView = Wire<Message>;

/** The part of an agent the chat shows. */
export type AgentView = Pick<Wire<Agent>, 'id' | 'name' | 'role' | 'online' | 'lastSeenAt'>;

export interface Viewer {
  id: string;
  workspaceId: string;
}
