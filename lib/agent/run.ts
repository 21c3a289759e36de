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
  const result = emptyResult(randomUUID());
  const complete = () => recordAndLog(opts, result, started);

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

  const setup = await prepare(opts, backend, result);
  if (!setup) return complete();
  const { vault, tools, finishToolName } = setup;
  const { prompt, opening, replayed } = buildPrompt(opts, backend, vault, tools, finishToolName);
  const abort = abortControl(opts);
  const dispatcher = new ToolDispatcher(new Map(tools.map((t) => [t.name, t])), finishToolName, vault, opts.policy.authorizeWrite, {
    workspaceId: opts.workspaceId,
    runId: result.runId!,
    agentId: opts.agent?.id,
    planet: opts.planet ?? 'cross',
    signal: abort.signal,
  });
  const maxIterations = opts.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  let lastText = '';
  let finishInput: unknown;
  const onFinish = (input: unknown) => (finishInput = input);

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
        ? await turnLoop(backend, prompt, replayed, opening, dispatcher, account, abort.abortable ? abort.signal : undefined, onFinish)
        : await hostLoop(backend, prompt, opening, maxIterations, opts.resume, dispatcher, account, abort.signal, result, onFinish);
  } catch (error) {
    settleFailure(opts, result, error, abort.cause());
  } finally {
    abort.release();
  }

  result.toolCalls = dispatcher.records;
  result.proposals = dispatcher.proposals;
  result.finalText = vault.reidentify(lastText);
  if (finishInput !== undefined) result.output = finishInput;
  return complete();
}

function emptyResult(runId: string): AgentRunResult {
  return {
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
}

/** Every run ends here, refused and failed ones too: its agent_runs row (and the month's tokens) and a log line. */
async function recordAndLog(opts: AgentRunOptions, result: AgentRunResult, started: number): Promise<AgentRunResult> {
  result.durationMs = performance.now() - started;
  const runId = result.runId!;
  try {
    // Trusted, as service; one autocommit statement unless the 80% warning is due (see recordRun).
    await recordRun(await getDb(), {
      id: runId,
      workspaceId: opts.workspaceId,
      agentId: opts.agent?.id,
      agentName: opts.agent?.name ?? '',
      planet: opts.planet ?? 'cross',
      trigger: opts.trigger,
      result,
    });
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
}

/**
 * What a run needs before its first model call: the quota's say, the alias key, the names the policy
 * hides and the tools the workspace's connections allow. Undefined when the run must not start (the
 * quota is spent, or a read failed); `result` then says why.
 */
async function prepare(
  opts: AgentRunOptions,
  backend: ModelBackend,
  result: AgentRunResult,
): Promise<{ vault: PiiVault; tools: ToolDefinition[]; finishToolName: string } | undefined> {
  const finishToolName = opts.finishToolName ?? 'finish';
  const given = Array.isArray(opts.tools) ? opts.tools : fromAgentTools(opts.tools);
  const declared = given.some((t) => t.name === finishToolName) ? given : [...given, builtinFinish(finishToolName)];
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
      return undefined;
    }
    return { vault: new PiiVault(key, opts.workspaceId, names, opts.speaker), tools: offered, finishToolName };
  } catch (error) {
    log('error', 'agent run setup failed', { runId: result.runId, workspaceId: opts.workspaceId, error });
    result.error = { kind: 'internal', message: `The run could not start: ${(error as Error).message}` };
    return undefined;
  }
}

/** The prompt, the opening message and the replayed turns, every piece across the PII boundary. */
function buildPrompt(
  opts: AgentRunOptions,
  backend: ModelBackend,
  vault: PiiVault,
  tools: ToolDefinition[],
  finishToolName: string,
): { prompt: Prompt; opening: string; replayed: Message[] } {
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
  // Backends that keep their own sessions take earlier turns as a transcript in the opening message
  // (unless they resume that session); the others get real turns.
  const prior = (opts.history ?? []).map((m) => ({ role: m.role, text: vault.pseudonymize(m.text) }));
  const ownSession = backend.kind === 'loop' || backend.id === 'codex';
  const opening = ownSession && !opts.resume && prior.length > 0 ? withTranscript(prior, firstMessage) : firstMessage;
  const replayed: Message[] = ownSession ? [] : prior.map((m) => (m.role === 'user' ? { role: 'user', text: m.text } : { role: 'assistant', text: m.text, toolCalls: [] }));
  return { prompt, opening, replayed };
}

/**
 * Only a caller's signal or a deadline can abort a run; `cause` says which did. The SDKs do extra work
 * for every request that carries a signal (listeners, a finalization registry), so a run that cannot
 * be aborted (`abortable` false) sends none.
 */
function abortControl(opts: Pick<AgentRunOptions, 'signal' | 'deadline'>) {
  const controller = new AbortController();
  let cause: 'cancelled' | 'deadline' | undefined;
  const abort = (why: 'cancelled' | 'deadline') => {
    cause ??= why;
    controller.abort(new Error(why === 'deadline' ? 'The run passed its deadline' : 'The run was cancelled'));
  };
  const onCancel = () => abort('cancelled');
  if (opts.signal?.aborted) abort('cancelled');
  opts.signal?.addEventListener('abort', onCancel, { once: true });
  const timer = opts.deadline ? setTimeout(() => abort('deadline'), Math.max(0, opts.deadline.getTime() - Date.now())) : undefined;
  return {
    signal: controller.signal,
    abortable: Boolean(opts.signal || opts.deadline),
    cause: () => cause,
    release: () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onCancel);
    },
  };
}

/** Why a run that threw stopped: its abort, the backend's own failure, or a bug (logged). */
function settleFailure(opts: AgentRunOptions, result: AgentRunResult, error: unknown, aborted: 'cancelled' | 'deadline' | undefined) {
  if (aborted) {
    result.stopReason = aborted;
  } else if (error instanceof BackendError) {
    result.stopReason = 'error';
    result.error = { kind: error.kind, message: error.message };
    result.message = error.message;
  } else {
    log('error', 'agent run failed', { runId: result.runId, workspaceId: opts.workspaceId, error });
    result.stopReason = 'error';
    result.error = { kind: 'internal', message: (error as Error)?.message ?? String(error) };
  }
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
