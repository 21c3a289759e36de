export { runAgent } from './run';
export { defineTool, toolsFor, ToolError } from './tools';
export type { ToolDefinition, ToolContext, ConnectionCheck } from './tools';
export { proposeOnly } from './dispatch';
export type { AuthorizeWrite, WriteDecision, WriteRequest } from './dispatch';
export { describeBackends, chooseBackend, BACKEND_LABELS } from './backends';
export { usageReport, runDetail, currentMonth } from './report';
export { quotaState, recordRun } from './usage';
export type { UsageReport, RunSummary, RunDetail } from './report';
export type { BackendsReport, BackendChoice } from './backends';
export { BACKENDS, STOP_REASONS } from './types';
export type {
  AgentRunOptions,
  AgentRunResult,
  AgentTool,
  BackendErrorKind,
  BackendId,
  RunPolicy,
  StopReason,
  ToolCallRecord,
  ToolKind,
  Usage,
  WriteProposal,
} from './types';
