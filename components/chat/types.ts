/**
 * Chat data as client components see it: what the REST API returns (camelCase, dates as ISO
 * strings). Server pages pass lib results through `serialize` to get the same shape.
 */

export interface MemberView {
  kind: 'person' | 'agent';
  id: string;
  name: string;
}

export interface ConversationView {
  id: string;
  workspaceId: string;
  kind: 'channel' | 'dm' | 'thread' | 'delegation';
  name: string | null;
  visibility: 'public' | 'private';
  status: 'open' | 'resolved' | 'abandoned' | null;
  parentConversationId: string | null;
  parentMessageId: string | null;
  resolutionMessageId: string | null;
  agentsPaused: boolean;
  lastMessageSeq: number | null;
  lastMessageAt: string | null;
  createdAt: string;
  members: MemberView[];
  joined: boolean;
  unread: number;
}

export type ThreadStatus = 'open' | 'resolved' | 'abandoned';

export interface MessageView {
  id: string;
  seq: number;
  conversationId: string;
  author: { kind: 'person' | 'agent'; id: string | null; name: string };
  body: string;
  mentions: { type: 'agent' | 'person'; id: string; name: string }[];
  payload: { sideThreads?: string[]; resolvesThread?: string; [key: string]: unknown };
  sideThreads: { id: string; status: ThreadStatus }[];
  reactions: { emoji: string; count: number; mine: boolean }[];
  createdAt: string;
  editedAt: string | null;
  deletedAt: string | null;
}

export interface AgentView {
  id: string;
  name: string;
  role: string;
  online: boolean;
  lastSeenAt: string | null;
}

export interface Viewer {
  id: string;
  workspaceId: string;
}
