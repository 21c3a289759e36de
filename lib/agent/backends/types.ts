import type { BackendErrorKind, BackendId, StopReason, Usage } from '@/lib/agent/types';

/** A tool as a model sees it. The list is sorted by name and each schema has sorted keys. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  kind: 'read' | 'write';
}

export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResult {
  id: string;
  content: string;
  isError: boolean;
}

/** The conversation in the runtime's own terms; each turn backend maps it to its provider's format. */
export type Message =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; toolCalls: ToolCall[] }
  | { role: 'tool'; results: ToolResult[] };

/** Everything a model call needs. All text has already crossed the PII boundary. */
export interface Prompt {
  /** Stable across turns and runs of the same agent: carries the cache breakpoint. */
  system: string;
  /** Changes per run (date, who speaks, fresh data, memory): sent after the breakpoint. */
  context: string;
  tools: ToolSpec[];
  model: string;
  maxTokens: number;
  finishToolName: string;
}

export interface ModelTurn {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  /** The model's own name for why it stopped (end_turn, tool_use, max_tokens, …). */
  stop: string;
  /** Backends that keep the conversation themselves (codex) name it, to be resumed later. */
  sessionId?: string;
}

/** Backends that produce one model turn per call; the runtime's loop does the rest. */
export interface TurnBackend {
  id: BackendId;
  kind: 'turns';
  model: string;
  /**
   * One model turn. A backend serves one run: `prompt` stays the same and `history` only grows, by appending,
   * from one call to the next. `signal` is left out when nothing can abort the run.
   */
  turn(prompt: Prompt, history: Message[], signal?: AbortSignal): Promise<ModelTurn>;
}

/** What a backend that runs its own agent loop (claude-code) gets from the runtime. */
export interface LoopHost {
  prompt: Prompt;
  firstMessage: string;
  maxIterations: number;
  resume?: string;
  signal: AbortSignal;
  /** Runs one tool call through the registry, guards and PII boundary. `stop` once the run must end. */
  callTool(call: ToolCall): Promise<ToolResult & { stop: boolean }>;
  /** Accounts one finished model turn; returns why the run must stop, if it must. */
  onTurn(turn: ModelTurn): StopReason | undefined;
}

export interface LoopOutcome {
  sessionId?: string;
  /** Usage as the backend totals it at the end (replaces the per-turn sum when given). */
  usage?: Usage;
}

export interface LoopBackend {
  id: BackendId;
  kind: 'loop';
  model: string;
  run(host: LoopHost): Promise<LoopOutcome>;
}

export type ModelBackend = TurnBackend | LoopBackend;

/** A configured backend that failed in a way the caller can act on. */
export class BackendError extends Error {
  constructor(
    readonly kind: BackendErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const zeroUsage = (): Usage => ({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });

export function addUsage(into: Usage, add: Usage) {
  into.input_tokens += add.input_tokens;
  into.output_tokens += add.output_tokens;
  into.cache_read_input_tokens += add.cache_read_input_tokens;
  into.cache_creation_input_tokens += add.cache_creation_input_tokens;
}

export const totalTokens = (u: Usage) => u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens;
