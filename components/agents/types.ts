import type { BackendsReport } from '@/lib/agent';
import type { AgentCredential, OwnedAgent, WorkspaceAgent } from '@/lib/agents';
import type { Wire } from '@/lib/api';

/** An agent as the Agents API sends it. */
export type AgentView = Wire<WorkspaceAgent>;
export type SavedAgentView = Wire<OwnedAgent>;
export type AgentKeyView = Wire<AgentCredential>;

/** One backend as /api/health reports it: whether this server can run it, and why (or why not). */
export type BackendOption = BackendsReport['backends'][number];

/** A workspace the person may put the agent in: one they own or administer. */
export interface PlaceOption {
  id: string;
  name: string;
  isPersonal: boolean;
}

export const agentsPath = (workspaceId: string) => `/w/${workspaceId}/settings/agents`;
export const agentsApi = (workspaceId: string) => `/api/workspaces/${workspaceId}/agents`;
