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

/** The write gate of a run that may not write: every write is proposed, none runs. */
export const proposeOnly: AuthorizeWrite = async () => ({ decision: 'propose' });

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
  /** Failures so far by call (`argsKey`), for the repeated-failure guard. */
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly tools: Map<string, ToolDefinition>,
    private readonly finishToolName: string,
    private readonly vault: PiiVault,
    private readonly authorizeWrite: AuthorizeWrite,
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
    for (const i of finishes ?? []) results[i] = await this.call(calls[i]!, iteration, outcome);
    return outcome;
  }

  /** One call, as the claude-code backend's tool bridge needs it. */
  async single(call: ToolCall, iteration: number): Promise<ToolResult & Pick<DispatchOutcome, 'finished'>> {
    const outcome: Pick<DispatchOutcome, 'finished'> = {};
    const result = await this.call(call, iteration, outcome);
    return { ...result, finished: outcome.finished };
  }

  /** `finishing` gets the finish tool's input when it ran. */
  private async call(call: ToolCall, iteration: number, finishing?: Pick<DispatchOutcome, 'finished'>): Promise<ToolResult> {
    const started = performance.now();
    const tool = this.tools.get(call.name);
    if (!tool) {
      const message = `There is no tool named "${call.name}". The tools are: ${[...this.tools.keys()].join(', ')}.`;
      return this.recordText(call, iteration, started, message, false, 'unknown_tool');
    }
    // Only a call that failed before can be stopped: a run without failures never looks.
    const key = this.failures.size > 0 ? argsKey(call) : undefined;
    if (key !== undefined && (this.failures.get(key) ?? 0) >= REPEATED_FAILURES) {
      const message = `Stopped: ${call.name} already failed ${REPEATED_FAILURES} times with these same arguments in this run, so it was not run again. Change the arguments or finish.`;
      return this.recordText(call, iteration, started, message, false, 'repeated_failure');
    }

    // Handlers work on real values: a read tool looks up the real customer, a write tool writes to them.
    const parsed = tool.input.safeParse(this.vault.reidentify(call.input));
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
      return this.failed(call, iteration, started, `Invalid input for ${call.name}: ${issues}. The input schema is ${JSON.stringify(tool.inputSchema)}.`, key);
    }

    if (tool.kind === 'write') {
      const planet = tool.planet ?? this.context.planet;
      const { workspaceId, runId, agentId } = this.context;
      const argsHash = shortHash(key ?? argsKey(call));
      const decision = await this.authorizeWrite({ workspaceId, runId, agentId, planet, tool, input: parsed.data, argsHash });
      if (decision.decision === 'deny') return this.recordText(call, iteration, started, decision.message, false, 'denied');
      if (decision.decision === 'propose') {
        this.proposals.push({ tool: tool.name, planet, input: parsed.data, argsHash });
        const message = decision.message ?? `Proposed: ${tool.name} was not run; the owner will see it as a proposal to approve.`;
        return this.recordText(call, iteration, started, message, true, 'proposed');
      }
    }

    let output: unknown;
    try {
      output = await tool.handler(parsed.data, this.context);
    } catch (error) {
      const message = error instanceof ToolError ? error.message : `${call.name} failed: ${error instanceof Error ? error.message : String(error)}`;
      return this.failed(call, iteration, started, message, key);
    }
    if (finishing && tool.name === this.finishToolName) finishing.finished = { input: parsed.data };
    const safe = typeof output === 'string' ? this.vault.pseudonymize(output) : (JSON.stringify(this.vault.pseudonymizeValue(output)) ?? '');
    return this.record(call, iteration, started, safe, true);
  }

  /** A failure counts towards the repeated-failure guard; the second one for the same arguments says so. */
  private failed(call: ToolCall, iteration: number, started: number, message: string, key = argsKey(call)): ToolResult {
    const count = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, count);
    if (count < REPEATED_FAILURES) return this.recordText(call, iteration, started, message, false);
    const stopped = `${message}\nThis call has now failed ${count} times with the same arguments and is stopped for the rest of the run.`;
    return this.recordText(call, iteration, started, stopped, false, 'repeated_failure');
  }

  /** `record` for a message of the runtime's or a handler's: it crosses the PII boundary here. */
  private recordText(call: ToolCall, iteration: number, started: number, text: string, ok: boolean, note?: ToolCallRecord['note']): ToolResult {
    return this.record(call, iteration, started, this.vault.pseudonymize(text), ok, note);
  }

  /** The result as the model sees it, and its record. `safe` has crossed the PII boundary already. */
  private record(call: ToolCall, iteration: number, started: number, safe: string, ok: boolean, note?: ToolCallRecord['note']): ToolResult {
    const record: ToolCallRecord = { name: call.name, ok, iteration, ms: Math.round((performance.now() - started) * 100) / 100 };
    if (!ok) record.error = safe.slice(0, 300);
    if (note) record.note = note;
    this.records.push(record);
    return { id: call.id, content: safe, isError: !ok };
  }
}

/** A call as the model made it (pseudonymized arguments, keys sorted): equal for the same tool and arguments. */
function argsKey(call: ToolCall): string {
  return `${call.name}\n${stableStringify(call.input)}`;
}
