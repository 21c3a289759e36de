import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { getDb } from '@/lib/db';
import { log } from '@/lib/log';
import { chooseBackend, createBackend } from './backends';
import { addUsage, BackendError, totalTokens, zeroUsage, type LoopHost, type Message, type ModelBackend, type ModelTurn, type Prompt } from './backends/types';
import { ToolDispatcher } from './dispatch';
import { canonicalize } from './json';
import { aliasKey, PiiVault } from './pii';
import { connectedTools, fromAgentTools, type ToolDefinition } from './tools';
import type { AgentRunOptions, AgentRunResult, StopReason } from './types';
import { quotaMessage, quotaState, recordRun } from './usage';

const DEFAULT_MAX_TOKENS = 800;
const DEFAULT_MAX_ITERATIONS = 8;

/**
 * The one agent loop. Bounded by iterations, a token budget, a deadline and the caller's signal; every
 * run, refused or failed ones included, leaves an agent_runs row and adds its tokens to the month.
 * Never throws for a model or tool failure: the result says what happened.
 */
export async function runAgent(opts: AgentRunOptions): Promise<AgentRunResult> {
  const started = performance.now();
  const runId = randomUUID();
  const planet = opts.planet ?? 'cross';
  const result: AgentRunResult = {
    ran: false,
    runId,
    stopReason: 'error',
    iterations: 0,
    toolCalls: [],
    usage: zeroUsage(),
    model: '',
    backend: 'none',
    finalText: '',
    proposals: [],
    durationMs: 0,
  };

  const complete = async (): Promise<AgentRunResult> => {
    result.durationMs = performance.now() - started;
    try {
      // Trusted, as service; one autocommit statement unless the 80% warning is due (see recordRun).
      await recordRun(await getDb(), { id: runId, workspaceId: opts.workspaceId, agentId: opts.agent?.id, agentName: opts.agent?.name ?? '', planet, trigger: opts.trigger, result });
    } catch (error) {
      log('error', 'agent run not recorded', { runId, workspaceId: opts.workspaceId, error });
      result.runId = null;
    }
    log('info', 'agent run', {
      runId,
      workspaceId: opts.workspaceId,
      backend: result.backend,
      stopReason: result.stopReason,
      iterations: result.iterations,
      tokens: totalTokens(result.usage),
      ms: Math.round(result.durationMs),
    });
    return result;
  };

  const choice = chooseBackend(opts.backend, opts.apiKey);
  if (!choice.available || (choice.id === 'offline' && opts.allowOffline === false)) {
    const message = choice.available
      ? 'No AI model is configured, and this task does not run on the offline model.'
      : `The ${choice.id} model backend cannot run: ${choice.reason}.`;
    result.error = { kind: 'no_backend', message };
    result.message = message;
    return complete();
  }

  const essential = (opts.essentialReadTools ?? []).map((e) => (typeof e === 'string' ? { name: e, input: {} } : e));
  const backend = createBackend(choice.id, { model: opts.model, apiKey: opts.apiKey, essentialReadTools: essential, resume: opts.resume });
  result.backend = backend.id;
  result.model = backend.model;

  const finishToolName = opts.finishToolName ?? 'finish';
  const given = Array.isArray(opts.tools) ? opts.tools : fromAgentTools(opts.tools);
  const declared = given.some((t) => t.name === finishToolName) ? given : [...given, builtinFinish(finishToolName)];

  let setup: { vault: PiiVault; tools: ToolDefinition[] };
  try {
    // Reads only, each consistent on its own: no transaction to pay for on every run (trusted, as service).
    // All of them at once: the quota decides before the first model call, not before the other reads.
    const db = await getDb();
    const spends = backend.id !== 'offline'; // the offline model spends no tokens, so the quota never stops it
    const [quota, key, names, offered] = await Promise.all([
      spends ? quotaState(db, opts.workspaceId) : undefined,
      aliasKey(db),
      opts.policy.knownNames(opts.workspaceId),
      connectedTools(opts.policy.connections, opts.workspaceId, declared),
    ]);
    if (spends && !quota) throw new Error(`Workspace ${opts.workspaceId} does not exist`);
    if (quota && quota.used >= quota.cap) {
      result.stopReason = 'quota_exceeded';
      result.message = quotaMessage(quota);
      return complete();
    }
    setup = { vault: new PiiVault(key, opts.workspaceId, names, opts.speaker), tools: offered };
  } catch (error) {
    log('error', 'agent run setup failed', { runId, workspaceId: opts.workspaceId, error });
    result.error = { kind: 'internal', message: `The run could not start: ${(error as Error).message}` };
    return complete();
  }
  const { vault, tools } = setup!;

  // Everything below crosses the PII boundary before it reaches a backend.
  const context = [opts.context, opts.memory ? `Memory:\n${opts.memory}` : ''].filter(Boolean).join('\n\n');
  const prompt: Prompt = {
    system: vault.pseudonymize(opts.system),
    context: vault.pseudonymize(context),
    tools: tools
      .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, kind: t.kind }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    model: backend.model,
    maxTokens: opts.maxTokens ?? DEFAULT_MAX_TOKENS,
    finishToolName,
  };
  const firstMessage = vault.pseudonymize(opts.firstMessage);
  // Earlier turns cross the PII boundary too. Backends that keep their own sessions take them as a
  // transcript in the opening message (unless they resume that session); the others get real turns.
  const prior = (opts.history ?? []).map((m) => ({ role: m.role, text: vault.pseudonymize(m.text) }));
  const ownSession = backend.kind === 'loop' || backend.id === 'codex';
  const opening = ownSession && !opts.resume && prior.length > 0 ? withTranscript(prior, firstMessage) : firstMessage;
  const replayed: Message[] = ownSession ? [] : prior.map((m) => (m.role === 'user' ? { role: 'user', text: m.text } : { role: 'assistant', text: m.text, toolCalls: [] }));

  const controller = new AbortController();
  let abortCause: 'cancelled' | 'deadline' | undefined;
  const abort = (cause: 'cancelled' | 'deadline') => {
    abortCause ??= cause;
    controller.abort(new Error(cause === 'deadline' ? 'The run passed its deadline' : 'The run was cancelled'));
  };
  const onCancel = () => abort('cancelled');
  if (opts.signal?.aborted) abort('cancelled');
  opts.signal?.addEventListener('abort', onCancel, { once: true });
  // Only a caller's signal or a deadline can abort the run. The SDKs do extra work for every request that
  // carries a signal (listeners, a finalization registry), so a run that cannot be aborted sends none.
  const abortable = Boolean(opts.signal || opts.deadline);
  const timer = opts.deadline ? setTimeout(() => abort('deadline'), Math.max(0, opts.deadline.getTime() - Date.now())) : undefined;

  const dispatcher = new ToolDispatcher(new Map(tools.map((t) => [t.name, t])), finishToolName, vault, opts.policy.authorizeWrite, {
    workspaceId: opts.workspaceId,
    runId,
    agentId: opts.agent?.id,
    planet,
    signal: controller.signal,
  });
  const maxIterations = opts.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  let lastText = '';
  let finishInput: unknown;

  // One model turn is over: count it, and say whether a bound ends the run.
  const account = (turn: ModelTurn): StopReason | undefined => {
    result.iterations += 1;
    addUsage(result.usage, turn.usage);
    if (turn.text) lastText = turn.text;
    if (turn.sessionId) result.sessionId = turn.sessionId;
    if (opts.tokenBudget !== undefined && totalTokens(result.usage) >= opts.tokenBudget) return 'budget';
    if (result.iterations >= maxIterations) return 'max_iter';
    return undefined;
  };

  result.ran = true;
  try {
    result.stopReason =
      backend.kind === 'turns'
        ? await turnLoop(backend, prompt, replayed, opening, dispatcher, account, abortable ? controller.signal : undefined, (input) => (finishInput = input))
        : await hostLoop(backend, prompt, opening, maxIterations, opts.resume, dispatcher, account, controller.signal, result, (input) => (finishInput = input));
  } catch (error) {
    if (abortCause) {
      result.stopReason = abortCause;
    } else if (error instanceof BackendError) {
      result.stopReason = 'error';
      result.error = { kind: error.kind, message: error.message };
      result.message = error.message;
    } else {
      log('error', 'agent run failed', { runId, workspaceId: opts.workspaceId, error });
      result.stopReason = 'error';
      result.error = { kind: 'internal', message: (error as Error)?.message ?? String(error) };
    }
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCancel);
  }

  result.toolCalls = dispatcher.records;
  result.proposals = dispatcher.proposals;
  result.finalText = vault.reidentify(lastText);
  if (finishInput !== undefined) result.output = finishInput;
  return complete();
}

async function turnLoop(
  backend: Extract<ModelBackend, { kind: 'turns' }>,
  prompt: Prompt,
  replayed: Message[],
  firstMessage: string,
  dispatcher: ToolDispatcher,
  account: (turn: ModelTurn) => StopReason | undefined,
  signal: AbortSignal | undefined,
  onFinish: (input: unknown) => void,
): Promise<StopReason> {
  const history: Message[] = [...replayed, { role: 'user', text: firstMessage }];
  for (let iteration = 1; ; iteration++) {
    signal?.throwIfAborted();
    const turn = await backend.turn(prompt, history, signal);
    const bound = account(turn);
    history.push({ role: 'assistant', text: turn.text, toolCalls: turn.toolCalls });
    if (turn.toolCalls.length === 0) return 'no_tool_use';
    const outcome = await dispatcher.dispatch(turn.toolCalls, iteration);
    history.push({ role: 'tool', results: outcome.results });
    if (outcome.finished) {
      onFinish(outcome.finished.input);
      return 'finished';
    }
    if (bound) return bound;
  }
}

/** For backends that run the loop themselves: the runtime still owns tools, bounds and accounting. */
async function hostLoop(
  backend: Extract<ModelBackend, { kind: 'loop' }>,
  prompt: Prompt,
  firstMessage: string,
  maxIterations: number,
  resume: string | undefined,
  dispatcher: ToolDispatcher,
  account: (turn: ModelTurn) => StopReason | undefined,
  signal: AbortSignal,
  result: AgentRunResult,
  onFinish: (input: unknown) => void,
): Promise<StopReason> {
  let stop: StopReason | undefined;
  const host: LoopHost = {
    prompt,
    firstMessage,
    maxIterations,
    resume,
    signal,
    async callTool(call) {
      // The turn asking for the call is accounted once its results are back, hence + 1.
      const out = await dispatcher.single(call, result.iterations + 1);
      if (out.finished) {
        stop ??= 'finished';
        onFinish(out.finished.input);
      }
      return { id: out.id, content: out.content, isError: out.isError, stop: stop !== undefined };
    },
    onTurn(turn) {
      const bound = account(turn);
      if (turn.toolCalls.length === 0) stop ??= 'no_tool_use';
      else if (bound) stop ??= bound;
      return stop;
    },
  };
  const outcome = await backend.run(host);
  if (outcome.usage) result.usage = outcome.usage;
  if (outcome.sessionId) result.sessionId = outcome.sessionId;
  signal.throwIfAborted();
  return stop ?? 'no_tool_use';
}

const finishInput = z.compile(z.object({ summary: z.string().describe('What you found and did, for the owner.') }));
const { $schema: _ignored, ...finishSchema } = z.toJSONSchema(finishInput) as Record<string, unknown>;

/** Earlier turns for a backend that takes one opening message: the conversation so far, then the new message. */
function withTranscript(prior: Array<{ role: 'user' | 'assistant'; text: string }>, message: string): string {
  const turns = prior.map((m) => `${m.role === 'user' ? 'User' : 'Assistant'}: ${m.text}`).join('\n\n');
  return `The conversation so far:\n\n${turns}\n\nThe new message:\n\n${message}`;
}

function builtinFinish(name: string): ToolDefinition {
  return {
    name,
    description: 'Call when the task is done, with a short summary. Nothing else runs after it.',
    input: finishInput,
    inputSchema: canonicalize(finishSchema),
    kind: 'read',
    handler: async () => 'ok',
  };
}
