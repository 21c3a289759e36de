import type { TurnDecision, TurnInput } from './bridge';

/**
 * What an agent on the offline model says in a conversation. The offline model has no model: it
 * cannot understand a message, so in chat it follows three fixed rules, in this order. They are the
 * offline model's behaviour, documented as such (no AI is involved), and what lets tests, demos and
 * installs without a model exercise side threads and delegations end to end.
 *
 * 1. The answer to a side thread or delegation this agent opened (a message from another agent
 *    there) is taken as the result: the thread is resolved, or the delegation relayed, with it.
 * 2. A person's `ask NAME: question` (or `chiedi a NAME: …`) naming another agent of the
 *    workspace hands the question over: in a DM as a delegation, elsewhere as a
 *    `<dm target="NAME">question</dm>` side thread — which the server extracts like any agent's tag.
 * 3. Anything else is acknowledged, quoting it. Answering another agent, it says it is done, so two
 *    offline agents never keep waking each other.
 */

// Anywhere in a line, so it may follow a mention: "@Nova ask Atlas: are we open on Sunday?".
const ASK = /(?:^|[\s,.;!?])(?:ask|chiedi\s+a)\s+@?([^:\n]{1,40}?)\s*:\s*(\S[^\n]*)/i;

/** A message quoted back: one line, no mentions (they would wake someone), no tags, not too long. */
function quote(text: string): string {
  const flat = text.replace(/[@<>]/g, '').replace(/\s+/g, ' ').trim();
  return `“${flat.length > 200 ? `${flat.slice(0, 199)}…` : flat}”`;
}

export function offlineDecision({ agent, delivery, view }: Pick<TurnInput, 'agent' | 'delivery' | 'view'>): TurnDecision {
  const { message } = delivery;
  const { conversation } = view;
  const fromAgent = message.authorKind === 'agent';
  const openedHere = conversation.openedBy?.kind === 'agent' && conversation.openedBy.id === agent.id;

  if (fromAgent && openedHere && conversation.kind === 'thread' && conversation.status === 'open') {
    return { kind: 'resolve', summary: `${message.authorName} answered: ${quote(message.body)}` };
  }
  if (fromAgent && openedHere && conversation.kind === 'delegation' && !conversation.resolutionMessageId) {
    return { kind: 'relay', result: `${message.authorName} answered: ${quote(message.body)}` };
  }

  const ask = fromAgent ? null : ASK.exec(message.body);
  const target = ask && view.agents.find((a) => a.id !== agent.id && a.name.toLowerCase() === ask[1]!.trim().toLowerCase());
  if (ask && target) {
    const question = ask[2]!.replace(/[<>]/g, '').trim();
    if (conversation.kind === 'dm') {
      return { kind: 'delegate', to: [target.name], task: question, body: `I asked ${target.name} in a separate conversation and will bring the answer back here.` };
    }
    if (conversation.kind === 'channel') {
      return { kind: 'reply', body: `I asked ${target.name} in a side thread.\n<dm target="${target.name}">${question}</dm>` };
    }
  }

  const ack = `Received: ${quote(message.body)}. I run on the offline model (no AI model is configured), so I can only acknowledge messages.`;
  if (!fromAgent) return { kind: 'reply', body: ack };
  // In a delegation an agent hears only who mentions it: answer the delegator by name.
  return { kind: 'reply', body: conversation.kind === 'delegation' ? `@${message.authorName} ${ack}` : ack, done: true };
}
