import type Anthropic from '@anthropic-ai/sdk';
import type { AuthorizeWrite } from './dispatch';
import type { ConnectionCheck, ToolDefinition } from './tools';

export type ToolKind = 'read' | 'write';

/** The model backends an agent or a run can use. */
export const BACKENDS = ['anthropic', 'claude-code', 'openai', 'codex', 'offline'] as const;
export type BackendId = (typeof BACKENDS)[number];

/**
 * Why a run ended.
 * - `finished`: the model called the finish tool.
 * - `no_tool_use`: the model answered without calling a tool.
 * - `max_iter`, `budget`, `deadline`: a bound was reached (iterations, the run's token budget, the deadline).
 * - `quota_exceeded`: the workspace is over its monthly cap; nothing was sent to a model.
 * - `cancelled`: the caller's AbortSignal fired.
 * - `error`: the backend failed or none was available (`error.kind` says which).
 */
export const STOP_REASONS = ['finished', 'no_tool_use', 'max_iter', 'budget', 'deadline', 'quota_exceeded', 'cancelled', 'error'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/** Token usage in the Messages API's own terms. Total input = input + cache read + cache creation. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** The seed contract's tool: an Anthropic tool schema plus a handler. Accepted as is; `defineTool` is the richer form. */
export interface AgentTool {
  schema: Anthropic.Tool;
  kind: ToolKind;
  /** Returns the tool_result content; `isError` marks a failed call. */
  handler: (input: unknown) => Promise<{ content: string; isError?: boolean }>;
}

export interface ToolCallRecord {
  name: string;
  ok: boolean;
  /** Which turn (1-based) asked for it. */
  iteration: number;
  ms: number;
  error?: string;
  /** `repeated_failure`: stopped by the guard; `unknown_tool`: no such tool; `proposed`: a write held for approval. */
  note?: 'repeated_failure' | 'unknown_tool' | 'proposed' | 'denied';
}

/** A write a tool wanted to make and the authorizer held back (default: every write, propose-only). */
export interface WriteProposal {
  tool: string;
  planet: string;
  /** Real (re-identified) arguments, as the handler would have received them. */
  input: unknown;
  argsHash: string;
}

export type BackendErrorKind = 'auth' | 'rate_limit' | 'overloaded' | 'bad_request' | 'unavailable' | 'network' | 'no_backend' | 'internal';

/**
 * What a run may do and whose names it hides, given by its caller on every run: nothing is installed by
 * importing a module. The app's runs take the workspace's policy from lib/policy; a bridge builds its own
 * from the agent API (lib/bridge/turn.ts).
 */
export interface RunPolicy {
  /**
   * The names to alias in a workspace (its customers, leads, staff and members), read at the start of every
   * run. When it fails the run stops before any model call: no text leaves without its names aliased.
   */
  knownNames: (workspaceId: string) => Promise<string[]>;
  /** Decides each write tool call before its handler runs (`proposeOnly`: every write is only proposed). */
  authorizeWrite: AuthorizeWrite;
  /**
   * Whether the workspace has a tool's connection; tools whose connection is missing are left out of the
   * run. Absent: every tool is offered. The app's runs set it (lib/policy: the workspace's connected
   * accounts, lib/connections).
   */
  connections?: ConnectionCheck;
}

export interface AgentRunOptions {
  /** Whose names to alias, what may write, which connections exist. */
  policy: RunPolicy;
  /**
   * The person the run answers, by the name the conversation shows them under: their own name (and its short
   * forms) reaches the model as written, so the agent can address them. Everyone else's stays aliased.
   */
  speaker?: string;
  /** The stable system prompt (role, rules, personality, skills index): cached, so keep dates and data out of it. */
  system: string;
  /** The first user message. */
  firstMessage: string;
  tools: ToolDefinition[] | Record<string, AgentTool>;
  /** Default `finish`. When no tool has this name, a built-in one taking `{ summary }` is added. */
  finishToolName?: string;
  model?: string;
  /** Output tokens per model call. Default 800. */
  maxTokens?: number;
  /** Model turns. Default 8. */
  maxIterations?: number;
  /** Overrides ANTHROPIC_API_KEY for the anthropic backend. */
  apiKey?: string;

  workspaceId: string;
  agent?: { id?: string; name: string };
  /** web | booking | content | crm | sales | marketing | cross. Default `cross`. */
  planet?: string;
  /** What started the run, e.g. `cron:analyze_planet_data`, `event:booking/created`, `user:chat`. */
  trigger: string;
  /** What changes from run to run (date, who speaks, fresh data): sent after the cache breakpoint. */
  context?: string;
  /** The agent's memory, sent after the cache breakpoint and pseudonymized like everything else. */
  memory?: string;
  /** Total tokens (input incl. cache + output) this run may use; it stops with `budget` once reached. */
  tokenBudget?: number;
  /** The run stops with `deadline` when this instant passes, even mid-call. */
  deadline?: Date;
  /** Cancels the run (`cancelled`), even mid-call. */
  signal?: AbortSignal;
  /** An explicit backend (the agent's or workspace's setting); otherwise MODEL_BACKEND, then automatic. */
  backend?: BackendId;
  /** false: answer `ran: false` instead of running the offline model (for callers with their own fallback). */
  allowOffline?: boolean;
  /** The read tools the offline model calls before finishing (name, or name and input). */
  essentialReadTools?: Array<string | { name: string; input: unknown }>;
  /** A session to continue (claude-code and codex backends keep their own history). */
  resume?: string;
  /**
   * Earlier turns of the conversation, oldest first (a multi-turn session replayed). Turn backends get
   * them as real turns; backends that keep their own sessions (claude-code, codex) get them as a
   * transcript in the first message, unless `resume` continues their session, which has them already.
   */
  history?: Array<{ role: 'user' | 'assistant'; text: string }>;
}

export interface AgentRunResult {
  /** false when nothing ran: no backend available, or the quota refused the run. The caller uses its fallback. */
  ran: boolean;
  /** The agent_runs row; null only if writing it failed. */
  runId: string | null;
  stopReason: StopReason;
  iterations: number;
  toolCalls: ToolCallRecord[];
  usage: Usage;
  model: string;
  backend: BackendId | 'none';
  /** The model's last text, re-identified. */
  finalText: string;
  /** The finish tool's input, re-identified. */
  output?: unknown;
  proposals: WriteProposal[];
  /** A sentence for the workspace owner when the run was refused or failed. */
  message?: string;
  error?: { kind: BackendErrorKind; message: string };
  /** Pass as `resume` to continue this conversation (backends with sessions). */
  sessionId?: string;
  durationMs: number;
}
