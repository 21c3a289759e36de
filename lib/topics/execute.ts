import { chooseBackend, runAgent, type AgentRunResult, type BackendId } from '@/lib/agent';
import { config } from '@/lib/config';
import { workspacePolicy } from '@/lib/policy';

/**
 * The model calls of the topic queue, all through the agent runtime (PII boundary, quota, run records):
 * answering a request, summarizing one exchange, summarizing a whole topic. None of them throws for a
 * model failure: the outcome carries the provider's message.
 */

export interface Exchange {
  prompt: string;
  result: string;
}

export type Outcome = { ok: true; text: string; model: string; backend: string; backendSessionId?: string } | { ok: false; error: string; model: string; backend: string };

/** A model call of a topic request may take this long before the request fails. */
export const ANSWER_TIMEOUT_MS = 10 * 60_000;
const ANSWER_MAX_TOKENS = 4096;
const OFFLINE_LABEL = '[offline model]';
// A topic may have an empty system prompt (the contract allows it); the Messages API refuses empty text.
const DEFAULT_SYSTEM = 'You are Claude, a helpful assistant.';

/** The contract's cascade: the request's model, else the topic's, else CLAUDE_MODEL. */
export function resolveModel(requestModel: string | null, topicModel: string | null): string {
  return requestModel ?? topicModel ?? config().CLAUDE_MODEL;
}

// Claude ids mean something only to the Claude backends; the others run the model they are configured with.
const modelFor = (backend: BackendId, model: string) => (backend === 'anthropic' || backend === 'claude-code' ? model : undefined);

export interface AnswerInput {
  workspaceId: string;
  topicName: string;
  systemPrompt: string;
  prompt: string;
  model: string;
  /** Earlier exchanges of the session, oldest first. */
  history: Exchange[];
  /** The backend session that holds this conversation already (claude-code, codex). */
  resume?: { backend: string; sessionId: string };
}

export async function answer(input: AnswerInput): Promise<Outcome> {
  const backend = chooseBackend().id;
  // A backend session only continues on the backend that made it; any other backend gets the history replayed.
  const resume = input.resume?.backend === backend ? input.resume.sessionId : undefined;
  const run = await runAgent({
    system: input.systemPrompt.trim() ? input.systemPrompt : DEFAULT_SYSTEM,
    firstMessage: input.prompt,
    history: input.history.flatMap((e) => [
      { role: 'user' as const, text: e.prompt },
      { role: 'assistant' as const, text: e.result },
    ]),
    resume,
    tools: [],
    model: modelFor(backend, input.model),
    maxTokens: ANSWER_MAX_TOKENS,
    maxIterations: 3,
    deadline: new Date(Date.now() + ANSWER_TIMEOUT_MS),
    workspaceId: input.workspaceId,
    policy: workspacePolicy,
    agent: { name: `Topic: ${input.topicName}` },
    trigger: 'api:topic-request',
  });
  if (run.backend === 'offline') {
    return {
      ok: true,
      text: `${OFFLINE_LABEL} No AI model is configured on this Multiverbe, so this prompt was not sent to Claude. It was received and queued correctly: "${excerpt(input.prompt, 200)}"`,
      model: run.model,
      backend: run.backend,
    };
  }
  return outcomeOf(run);
}

/** 1–2 sentences about one exchange, for the topic's running summary. */
export async function summarizeExchange(workspaceId: string, topicName: string, model: string, exchange: Exchange): Promise<Outcome> {
  return summarize(
    workspaceId,
    topicName,
    model,
    `You keep the running notes of the topic "${topicName}". Summarize the exchange you are given in one or two sentences, in the language of the exchange. Reply with the sentences only, no preamble.`,
    formatExchanges([exchange]),
    () => `${OFFLINE_LABEL} Asked: "${excerpt(exchange.prompt, 120)}"`,
  );
}

/** One summary of every exchange given, replacing the topic's notes. */
export async function summarizeTopic(workspaceId: string, topicName: string, model: string, exchanges: Exchange[]): Promise<Outcome> {
  return summarize(
    workspaceId,
    topicName,
    model,
    `You write the notes of the topic "${topicName}" from all of its exchanges so far: what was asked, what was concluded, what is still open. Be concise (at most about ten sentences), write in the language of the exchanges, and reply with the notes only, no preamble.`,
    formatExchanges(exchanges),
    () => `${OFFLINE_LABEL} ${exchanges.length} exchange(s): ${exchanges.map((e) => `"${excerpt(e.prompt, 60)}"`).join('; ')}`,
  );
}

async function summarize(workspaceId: string, topicName: string, model: string, system: string, text: string, offline: () => string): Promise<Outcome> {
  const backend = chooseBackend().id;
  const run = await runAgent({
    system,
    firstMessage: text,
    tools: [],
    model: modelFor(backend, model),
    maxTokens: 1024,
    maxIterations: 3,
    deadline: new Date(Date.now() + ANSWER_TIMEOUT_MS),
    workspaceId,
    policy: workspacePolicy,
    agent: { name: `Topic: ${topicName}` },
    trigger: 'api:topic-summary',
  });
  if (run.backend === 'offline') return { ok: true, text: offline(), model: run.model, backend: run.backend };
  return outcomeOf(run);
}

function outcomeOf(run: AgentRunResult): Outcome {
  const base = { model: run.model, backend: run.backend };
  if (!run.ran || run.stopReason === 'error' || run.stopReason === 'quota_exceeded') {
    return { ok: false, error: run.error?.message ?? run.message ?? 'The model did not run.', ...base };
  }
  if (run.stopReason === 'deadline' || run.stopReason === 'cancelled') {
    return { ok: false, error: `The model gave no answer within ${ANSWER_TIMEOUT_MS / 60_000} minutes.`, ...base };
  }
  // The runtime always offers a finish tool; a model that answers through it puts the text in `summary`.
  const finished = (run.output as { summary?: unknown } | undefined)?.summary;
  const text = run.finalText.trim() || (typeof finished === 'string' ? finished.trim() : '');
  if (!text) return { ok: false, error: 'The model returned an empty answer.', ...base };
  return { ok: true, text, ...base, ...(run.sessionId ? { backendSessionId: run.sessionId } : {}) };
}

function formatExchanges(exchanges: Exchange[]): string {
  return exchanges.map((e, i) => `## Exchange ${i + 1}\n\nQuestion:\n${e.prompt}\n\nAnswer:\n${e.result}`).join('\n\n');
}

function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
