export {
  AGENT_RUNTIMES,
  AGENT_VISIBILITIES,
  ONLINE_WINDOW_SECONDS,
  createAgent,
  createAgentSchema,
  getAgentSelf,
  getOwnedAgent,
  insertAgent,
  listOwnAgents,
  listWorkspaceAgents,
  updateAgent,
  updateAgentSchema,
} from './agents';
export type { Agent, OwnedAgent } from './agents';
export {
  AGENT_SESSION_SECONDS,
  CREDENTIAL_KINDS,
  HOST_TOKEN_SECONDS,
  agentSessionStands,
  createAgentKey,
  createKeySchema,
  exchangeAgentCredential,
  issueHostToken,
  listAgentKeys,
  requireAgent,
  revokeAgentKey,
  verifyAgentSession,
} from './credentials';
export type { AgentCredential, AgentSession } from './credentials';
export { recordHeartbeat } from './presence';
export {
  createAgentIn,
  createAgentKeyIn,
  deleteAgentIn,
  getAgentIn,
  listAgentKeysIn,
  listAgentsIn,
  revokeAgentKeyIn,
  updateAgentIn,
} from './workspace';
export type { WorkspaceAgent } from './workspace';
