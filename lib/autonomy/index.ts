/**
 * Autonomy: per workspace and planet `off | propose | auto` (default propose), per action type the
 * owner's opt-in to automatic after PROMOTE_AFTER_APPROVALS approvals, kill switches for the workspace
 * and each planet, and the life of every agent decision (proposed → approved → executed | failed,
 * rejected, expired, undone). `authorizeWrite` is the runtime's write gate, which the app's runs are given
 * in their policy (lib/policy); `actionTools` are the agent tools for lib/actions' actions, whose calls
 * it gates and executes. Dependencies point one way: lib/autonomy imports lib/actions, never the reverse.
 */
export { authorizeWrite } from './authorize';
export { actionTools } from './tools';
export {
  approveDecision,
  DECISION_STATUSES,
  DECISION_TIERS,
  decisionJoin,
  DECISION_VIEW,
  expireDecisions,
  listDecisions,
  rejectDecision,
  submitAction,
  submitAgentAction,
  undoDecision,
  type ActionRequest,
  type ApprovalResult,
  type DecisionFilter,
  type DecisionRow,
  type DecisionStatus,
  type DecisionTier,
  type DecisionView,
  type SubmitOutcome,
} from './decisions';
export {
  AUTONOMY_LEVELS,
  autonomyChangeSchema,
  changeAutonomy,
  getAutonomy,
  PROMOTE_AFTER_APPROVALS,
  promotionSuggestions,
  readAutonomy,
  type ActionAutonomy,
  type AutonomyChange,
  type AutonomyLevel,
  type AutonomySettings,
  type PlanetAutonomy,
  type PromotionSuggestion,
} from './settings';
export { cancelMessage, listOutbox, type OutboxMessageView } from './outbox';
export { roleIn, type Role } from './roles';
export { actionTier, type Tier } from './tier';
