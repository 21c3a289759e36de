import { z } from 'zod';
import { defineTool, proposeOnly, runAgent, type AgentRunResult, type BackendId, type RunPolicy, type ToolDefinition } from '@/lib/agent';
import { publishArtifactTool } from '@/lib/artifacts';
import { publishResultTool, reportOutcomeTool } from '@/lib/cards';
import { planetMetricsTool } from '@/lib/insights';
import type { PlanetMetrics } from '@/lib/planets';
import type { AgentSelf, ConversationView, Delivery, TurnApi } from './api';
import type { TurnDecision, TurnRunner } from './bridge';
import { figuresReply, offlineFailure, offlinePlan, type OfflinePlan } from './offline';

/**
 * One turn of an agent in a conversation, run through the agent runtime (`runAgent`) with the
 * agent's own backend and model. Before it answers, the model may publish cards (`publish_result`),
 * artifacts (`publish_artifact`) and what came of a click on its card (`report_outcome`). It answers
 * by calling the `reply` tool once; its fields say what the bridge does (reply, pass, resolve a side
 * thread, delegate from a DM, relay a result). The offline model cannot do that, so it follows fixed
 * rules (`offline.ts`): the tool calls they plan run through the same runtime and tools.
 */

const replyInput = z.object({
  message: z.string().max(20_000).describe('What you say in the conversation, in markdown. Leave empty when you pass.'),
  pass: z.boolean().optional().describe('true: you have nothing useful to add; the next agent in line gets its turn.'),
  done: z.boolean().optional().describe("true: your part here is finished; other agents' messages will not wake you until a person writes."),
  resolve: z.boolean().optional().describe('In a side thread: true posts `message` back where the thread came from, as its summary, and closes the thread.'),
  relay: z.boolean().optional().describe('In a delegation: true brings `message` back to the direct message it came from, as the final result.'),
  delegate: z
    .object({ to: z.array(z.string()).min(1).describe('Agent names.'), task: z.string().min(1) })
    .optional()
    .describe('In a direct message: hands `task` to these agents in a separate conversation; `message` tells the person.'),
});

// Planet `chat` keeps it out of every other agent's tool set (toolsFor gives planet-less tools to all).
const replyTool = defineTool({
  name: 'reply',
  description: 'Your answer to the message. Call it exactly once; nothing runs after it.',
  input: replyInput,
  kind: 'read',
  planet: 'chat',
  handler: async () => 'ok',
});

/**
 * The registry's publishing tools (same names, descriptions and schemas), carried out through the
 * agent API like everything else a bridge does: it may run on a laptop, away from the app's
 * database. `published` notes that something went out, so an empty reply afterwards answers the turn
 * instead of passing it to the next agent.
 */
function publishingTools(api: TurnApi, published: { any: boolean }): ToolDefinition[] {
  const through = <S extends z.ZodType>(tool: ToolDefinition<S>, handler: ToolDefinition<S>['handler']): ToolDefinition<S> => ({
    ...tool,
    handler: async (input, ctx) => {
      const output = await handler(input, ctx);
      published.any = true;
      return output;
    },
  });
  return [
    through(publishResultTool, async ({ conversationId, message, results }) => {
      const { message: sent, cards } = await api.publishResults({ conversationId, body: message, results });
      return { messageId: sent.id, cards: cards.map((c) => ({ id: c.id, type: c.type, template: c.template, fallback: c.fallback ?? null })) };
    }),
    through(publishArtifactTool, async ({ conversationId, kind, title, language, content, message }) => {
      const { artifact } = await api.publishArtifact({ conversationId, kind, title, language, content, body: message });
      return { artifactId: artifact.id, version: artifact.currentVersion };
    }),
    through(reportOutcomeTool, ({ eventId, status, outcome }) => api.reportOutcome(eventId, { status, outcome })),
  ];
}

/**
 * The registry's read tool for the business (same name, description and schema), read through the
 * agent API for the turn's workspace: aggregates only. What it read is kept for the offline answer.
 */
function readingTools(api: TurnApi, read: PlanetMetrics[]): ToolDefinition[] {
  const planetMetrics: ToolDefinition<typeof planetMetricsTool.input> = {
    ...planetMetricsTool,
    handler: async ({ planet }, ctx) => {
      const figures = await api.planetMetrics(ctx.workspaceId, planet);
      read.push(figures);
      return figures;
    },
  };
  return [planetMetrics];
}

/** The stable part of the prompt: the same bytes on every turn of this agent, so it is cached. */
function systemPrompt(agent: AgentSelf): string {
  return [
    `You are ${agent.name}${agent.role ? `, ${agent.role}` : ''}, an agent in Multiverbe, where people and agents talk in channels, direct messages, side threads and delegations.`,
    agent.capabilities.length ? `Your domains: ${agent.capabilities.join(', ')}.` : 'You are a generalist.',
    // The owner's own words from the Agents screen; absent in agents made before it existed.
    agent.instructions ? `Your instructions from the business, in their words:\n${agent.instructions}` : '',
    'How to answer:',
    '- Call the reply tool once. Write like a colleague in a chat: short and plain; markdown is fine. Use the language of the message.',
    '- If someone else is better placed, or you have nothing useful to add, reply with pass: true and the next agent gets its turn.',
    '- Write @Name to address someone. An agent hears another agent only when mentioned by name.',
    '- To bring in another agent privately, without the whole conversation, put the part meant for them in <dm target="Name">…</dm> inside your message: a side thread opens under it. In that thread, once you have what you needed, reply with resolve: true and a short summary as the message: it is posted back and the thread closes.',
    '- In a direct message, to hand a task to another agent, reply with delegate: {to, task}: it is worked out in a separate conversation. There, once you have the final result, reply with relay: true and the result as the message.',
    '- When your part is finished and you do not need to hear from other agents, set done: true.',
    '- For figures about the business (bookings, customers, sales, content, marketing, the website), call planet_metrics for that planet and answer from what it returns; never guess a number.',
    '- Something substantial (a document, code, an HTML page, a table) goes out with publish_artifact, not pasted into the message. Structured results (a briefing, an email draft, a booking, a customer…) go out with publish_result: they show as cards. Then reply with a short line, or with an empty message when the card says it all.',
    '- In a customer conversation, your message is the answer the customer receives (by SMS, WhatsApp or email, as they wrote): write it to them, briefly and politely, in their language, without markdown. The owner may have to approve it first. Never promise a booking, a price or anything you have not checked; to leave it to the owner, pass.',
    '- A message carrying a cardEvent is a click on a button of one of your cards: do what it asks, then report_outcome with its eventId, in one sentence.',
  ]
    .filter(Boolean)
    .join('\n');
}

const KIND_LABEL: Record<ConversationView['conversation']['kind'], string> = {
  channel: 'channel',
  dm: 'direct message',
  thread: 'side thread',
  delegation: 'delegation (a separate conversation for a task handed over from a direct message)',
  customer: 'customer conversation (a customer wrote to the business by SMS, WhatsApp or email)',
};

/** What changes from turn to turn: where we are, who is here, what was said. */
function contextOf(delivery: Delivery, view: ConversationView): string {
  const { conversation } = view;
  const where = `${conversation.name ? `#${conversation.name} ` : ''}(${KIND_LABEL[conversation.kind]}${conversation.status ? `, ${conversation.status}` : ''})`;
  const members = view.members.map((m) => `${m.name} (${m.kind === 'agent' ? `agent${m.role ? `, ${m.role}` : ''}` : 'person'})`).join('; ');
  const agents = view.agents.map((a) => `${a.name}${a.role ? ` (${a.role})` : ''}`).join('; ');
  const history = view.messages.map((m) => `[${m.authorName}${m.authorKind === 'person' ? '' : `, ${m.authorKind}`}] ${m.body}`).join('\n');
  return [
    `Conversation: ${where}, id ${conversation.id}`,
    `Members: ${members}`,
    `Agents of this workspace: ${agents}`,
    `Recent messages, oldest first:\n${history}`,
    delivery.attempts > 1 ? 'An earlier attempt at this turn did not finish; answer afresh.' : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

export interface TurnRunnerOptions {
  /** Runs every agent on this backend instead of its own (`npm run bridge -- --backend offline`). */
  backend?: BackendId;
}

/** What was said, and for a click on one of the agent's cards, which click (the model reports on it). */
function firstMessageOf({ message }: Delivery): string {
  const said = `${message.authorName} (${message.authorKind}) wrote:\n\n${message.body}`;
  const event = message.payload?.cardEvent;
  return event ? `${said}\n\nThis is a click on a button of your card. cardEvent: ${JSON.stringify(event)}` : said;
}

/**
 * A bridge's runs have no app database (on a laptop): they read the workspace's names through the agent
 * API, for every turn, and only propose writes (a turn's tools read and publish; none writes).
 */
const turnPolicy = (api: TurnApi, view: ConversationView): RunPolicy => {
  // A customer signs with their first name alone ("Grazie, Mario"), which the workspace's names do not
  // hide on their own (a first name is shared): in their conversation it is theirs, so it is hidden too.
  const firstNames = view.conversation.kind === 'customer' ? customerFirstNames(view) : [];
  return {
    knownNames: firstNames.length ? async (workspaceId) => [...(await api.knownNames(workspaceId)), ...firstNames] : api.knownNames,
    authorizeWrite: proposeOnly,
  };
};

/** The first names of the customers who wrote in a customer conversation, as one-word names to hide. */
function customerFirstNames(view: ConversationView): string[] {
  const names = new Set<string>();
  for (const m of view.messages) {
    const first = m.authorKind === 'customer' ? m.authorName.trim().split(/\s+/)[0] : undefined;
    if (first && first.length >= 3 && m.authorName.trim().includes(' ')) names.add(first);
  }
  return [...names];
}

export function createTurnRunner(options: TurnRunnerOptions = {}): TurnRunner {
  return async ({ agent, delivery, view, signal, deadline, api }): Promise<TurnDecision> => {
    const backend = options.backend ?? agent.backend;
    // The offline model's rules are decided up front, and only for it: the backend asked for is the one that runs.
    const plan = backend === 'offline' ? offlinePlan({ agent, delivery, view }) : undefined;
    const published = { any: false };
    const read: PlanetMetrics[] = [];
    const result = await runAgent({
      system: systemPrompt(agent),
      context: contextOf(delivery, view),
      firstMessage: firstMessageOf(delivery),
      tools: [replyTool, ...publishingTools(api, published), ...readingTools(api, read)],
      finishToolName: 'reply',
      essentialReadTools: plan?.calls,
      backend,
      model: agent.model ?? undefined,
      maxIterations: 6,
      workspaceId: delivery.workspaceId,
      policy: turnPolicy(api, view),
      // A person may be named as they are by the agent answering them; an agent is not a person.
      speaker: delivery.message.authorKind === 'person' ? delivery.message.authorName : undefined,
      agent: { id: agent.id, name: agent.name },
      trigger: `chat:${delivery.conversationKind}`,
      deadline,
      signal,
    });
    if (plan) return settleOffline(plan, result, api, read);
    if (!result.ran || result.stopReason === 'error' || result.stopReason === 'quota_exceeded') {
      // Say why instead of going silent: the person can act on it (install a backend, change the plan).
      return { kind: 'reply', body: `I could not answer: ${result.message ?? result.error?.message ?? 'my model did not run.'}` };
    }
    const out = replyInput.safeParse(result.output);
    if (!out.success) {
      const text = result.finalText.trim();
      if (published.any && (!text || /^pass\.?$/i.test(text))) return { kind: 'answered' };
      return !text || /^pass\.?$/i.test(text) ? { kind: 'pass' } : { kind: 'reply', body: text };
    }
    const reply = out.data;
    const kind = view.conversation.kind;
    if (reply.pass) return published.any ? { kind: 'answered', done: reply.done } : { kind: 'pass', done: reply.done };
    if (reply.resolve && kind === 'thread' && reply.message.trim()) return { kind: 'resolve', summary: reply.message };
    if (reply.relay && kind === 'delegation' && reply.message.trim()) return { kind: 'relay', result: reply.message };
    if (reply.delegate && kind === 'dm') {
      return { kind: 'delegate', to: reply.delegate.to, task: reply.delegate.task, body: reply.message.trim() || `I asked ${reply.delegate.to.join(', ')}.` };
    }
    if (reply.message.trim()) return { kind: 'reply', body: reply.message, done: reply.done };
    return published.any ? { kind: 'answered', done: reply.done } : { kind: 'pass', done: reply.done };
  };
}

/**
 * After the offline model made its planned calls: a click's outcome is reported (as failed, saying
 * why, when a call did not go through), figures that were asked for are written out, and a
 * publication that failed is said in a reply instead of leaving the person with nothing.
 */
async function settleOffline(plan: OfflinePlan, result: AgentRunResult, api: TurnApi, read: PlanetMetrics[]): Promise<TurnDecision> {
  const planned = new Set<string>(plan.calls.map((c) => c.name));
  const made = result.toolCalls.filter((c) => planned.has(c.name));
  const failed = made.find((c) => !c.ok) ?? (made.length < plan.calls.length ? { error: 'the run stopped before it was done' } : undefined);
  if (plan.report) {
    const { eventId, status, outcome } = plan.report;
    await api.reportOutcome(eventId, failed ? { status: 'failed', outcome: offlineFailure(plan.language, 'report', failed.error).slice(0, 500) } : { status, outcome });
    return plan.decision;
  }
  if (plan.answerWithFigures) {
    return { kind: 'reply', body: read[0] ? figuresReply(read[0], plan.language) : offlineFailure(plan.language, 'figures', failed?.error) };
  }
  if (failed) return { kind: 'reply', body: offlineFailure(plan.language, 'publish', failed.error) };
  return plan.decision;
}
