import { shortHash, stableStringify } from './json';
import type { PiiVault } from './pii';
import { ToolError, type ToolContext, type ToolDefinition } from './tools';
import type { ToolCall, ToolResult } from './backends/types';
import type { ToolCallRecord, WriteProposal } from './types';

export interface WriteRequest {
  workspaceId: string;
  runId: string;
  agentId?: string;
  planet: string;
  tool: ToolDefinition;
  /** The real (re-identified) arguments. */
  input: unknown;
  /** Identifies the exact proposal: bind an approval to it. */
  argsHash: string;
}

export type WriteDecision = { decision: 'execute' } | { decision: 'propose'; message?: string } | { decision: 'deny'; message: string };

export type AuthorizeWrite = (request: WriteRequest) => Promise<WriteDecision>;

const proposeOnly: AuthorizeWrite = async () => ({ decision: 'propose' });

let authorizeWrite: AuthorizeWrite = proposeOnly;

/**
 * The hook every write tool goes through before its handler runs (the autonomy settings implement it).
 * Without one, writes are only proposed. Pass `undefined` to restore that default.
 */
export function setAuthorizeWrite(hook: AuthorizeWrite | undefined) {
  authorizeWrite = hook ?? proposeOnly;
}

/** The same call failing this many times is stopped for the rest of the run. */
const REPEATED_FAILURES = 2;

export interface DispatchOutcome {
  results: ToolResult[];
  /** The finish tool ran successfully; its (re-identified) input. */
  finished?: { input: unknown };
}

/** Runs the tool calls of a run: validation, guards, write authorization and the PII boundary, in one place. */
export class ToolDispatcher {
  readonly records: ToolCallRecord[] = [];
  readonly proposals: WriteProposal[] = [];
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly tools: Map<string, ToolDefinition>,
    private readonly finishToolName: string,
    private readonly vault: PiiVault,
    private readonly context: ToolContext,
  ) {}

  /**
   * One turn's calls. Read tools run in parallel, writes one after another in the model's order, and the
   * finish tool last, so a finish never cuts off work asked for in the same turn.
   */
  async dispatch(calls: ToolCall[], iteration: number): Promise<DispatchOutcome> {
    const results = new Array<ToolResult>(calls.length);
    const outcome: DispatchOutcome = { results };
    const reads: Array<Promise<ToolResult>> = [];
    const readAt: number[] = [];
    let writes: number[] | undefined;
    let finishes: number[] | undefined;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      if (call.name === this.finishToolName) (finishes ??= []).push(i);
      else if (this.tools.get(call.name)?.kind === 'write') (writes ??= []).push(i);
      else {
        reads.push(this.call(call, iteration));
        readAt.push(i);
      }
    }
    const read = await Promise.all(reads);
    for (let j = 0; j < read.length; j++) results[readAt[j]!] = read[j]!;
    for (const i of writes ?? []) results[i] = await this.call(calls[i]!, iteration);
    for (const i of finishes ?? []) results[i] = await this.call(calls[i]!, iteration, (input) => (outcome.finished = { input }));
    return outcome;
  }

  /** One call, as the claude-code backend's tool bridge needs it. */
  async single(call: ToolCall, iteration: number): Promise<ToolResult & Pick<DispatchOutcome, 'finished'>> {
    let finished: DispatchOutcome['finished'];
    const result = await this.call(call, iteration, (input) => (finished = { input }));
    return { ...result, finished };
  }

  private async call(call: ToolCall, iteration: number, onFinish?: (input: unknown) => void): Promise<ToolResult> {
    const started = performance.now();
    const argsHash = shortHash(`${call.name}\n${stableStringify(call.input)}`);
    const done = (content: string, ok: boolean, note?: ToolCallRecord['note']): ToolResult => {
      const safe = this.vault.pseudonymize(content);
      const record: ToolCallRecord = { name: call.name, ok, iteration, ms: Math.round((performance.now() - started) * 100) / 100, argsHash };
      if (!ok) record.error = safe.slice(0, 300);
      if (note) record.note = note;
      this.records.push(record);
      return { id: call.id, content: safe, isError: !ok };
    };

    const tool = this.tools.get(call.name);
    if (!tool) {
      return done(`There is no tool named "${call.name}". The tools are: ${[...this.tools.keys()].join(', ')}.`, false, 'unknown_tool');
    }
    if ((this.failures.get(argsHash) ?? 0) >= REPEATED_FAILURES) {
      return done(
        `Stopped: ${call.name} already failed ${REPEATED_FAILURES} times with these same arguments in this run, so it was not run again. Change the arguments or finish.`,
        false,
        'repeated_failure',
      );
    }
    const failed = (message: string, note?: ToolCallRecord['note']) => {
      const count = (this.failures.get(argsHash) ?? 0) + 1;
      this.failures.set(argsHash, count);
      if (count < REPEATED_FAILURES) return done(message, false, note);
      return done(`${message}\nThis call has now failed ${count} times with the same arguments and is stopped for the rest of the run.`, false, 'repeated_failure');
    };

    // Handlers work on real values: a read tool looks up the real customer, a write tool writes to them.
    const parsed = tool.input.safeParse(this.vault.reidentify(call.input));
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
      return failed(`Invalid input for ${call.name}: ${issues}. The input schema is ${JSON.stringify(tool.inputSchema)}.`);
    }

    if (tool.kind === 'write') {
      const decision = await authorizeWrite({
        workspaceId: this.context.workspaceId,
        runId: this.context.runId,
        agentId: this.context.agentId,
        planet: tool.planet ?? this.context.planet,
        tool,
        input: parsed.data,
        argsHash,
      });
      if (decision.decision === 'deny') return done(decision.message, false, 'denied');
      if (decision.decision === 'propose') {
        this.proposals.push({ tool: tool.name, planet: tool.planet ?? this.context.planet, input: parsed.data, argsHash });
        return done(decision.message ?? `Proposed: ${tool.name} was not run; the owner will see it as a proposal to approve.`, true, 'proposed');
      }
    }

    try {
      const output = await tool.handler(parsed.data, this.context);
      if (tool.name === this.finishToolName) onFinish?.(parsed.data);
      return done(typeof output === 'string' ? output : (JSON.stringify(output) ?? ''), true);
    } catch (error) {
      if (error instanceof ToolError) return failed(error.message);
      return failed(`${call.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
