import { en } from '@/lib/i18n/messages/en';
import { createTranslator } from '@/lib/i18n';
import { metricLabel, metricValue } from '@/lib/planets/format';
import type { Planet, PlanetMetrics } from '@/lib/planets';
import type { TurnDecision, TurnInput } from './bridge';

/**
 * What an agent on the offline model does in a conversation. The offline model has no model: it
 * cannot understand a message, so in chat it follows fixed rules, in this order. They are the
 * offline model's behaviour, documented as such (no AI is involved), and what lets tests, demos and
 * installs without a model exercise side threads, delegations, cards and artifacts end to end.
 *
 * 1. A click on a button of one of its cards (a person's message carrying a `cardEvent`): "Save as
 *    document" on a briefing publishes the briefing as a markdown artifact and reports "Saved as the
 *    document …"; any other button is reported as something the offline model cannot do.
 * 2. The answer to a side thread or delegation this agent opened (a message from another agent
 *    there) is taken as the result: the thread is resolved, or the delegation relayed, with it.
 * 3. A person's `ask NAME: question` (or `chiedi a NAME: …`) naming another agent of the
 *    workspace hands the question over: in a DM as a delegation, elsewhere as a
 *    `<dm target="NAME">question</dm>` side thread — which the server extracts like any agent's tag.
 * 4. A person asking for a briefing, summary or recap (`briefing`, `riepilogo`, `riassunto`…) gets a
 *    `briefing` card of the recent messages it read: counts, people's questions, the latest messages,
 *    and a "Save as document" button.
 * 5. A person asking to write or draft a document (`write a document about …`, `scrivi una bozza
 *    su …`) gets a markdown artifact: an outline with what was asked and what was said, to edit.
 * 6. A person asking about a part of the business (`how are bookings this week?`, `come vanno le
 *    vendite?`) gets that planet's figures, read through `planet_metrics`: its health, each metric with
 *    the previous period and the sector benchmark, and why it is not good where it is not.
 * 7. Anything else is acknowledged, quoting it. Answering another agent, it says it is done, so two
 *    offline agents never keep waking each other.
 *
 * Publishing and reading go through the registry's tools (publish_result, publish_artifact,
 * planet_metrics), which the turn runs through the agent runtime like a model's calls; the plan says
 * which, with what input.
 */

export interface OfflinePlan {
  /** Tool calls, by registry name with their input, made before the turn answers. */
  calls: Array<{ name: 'publish_result' | 'publish_artifact' | 'planet_metrics'; input: Record<string, unknown> }>;
  /** The reply is the figures the calls read (rule 6), written once they are in. */
  answerWithFigures?: boolean;
  /** What came of a card click, reported once the calls went through (as failed when one did not). */
  report?: { eventId: string; status: 'done' | 'failed'; outcome: string };
  decision: TurnDecision;
}

type Input = Pick<TurnInput, 'agent' | 'delivery' | 'view'> & { now?: Date };

// Anywhere in a line, so it may follow a mention: "@Nova ask Atlas: are we open on Sunday?".
const ASK = /(?:^|[\s,.;!?])(?:ask|chiedi\s+a)\s+@?([^:\n]{1,40}?)\s*:\s*(\S[^\n]*)/i;
const BRIEFING = /\b(?:briefing|brief me|summary|summari[sz]e|recap|riepilogo|riassunto|riassumi)\b/i;
const DOCUMENT =
  /\b(?:write|draft|prepare)\b[^.?!\n]{0,40}?\b(?:document|doc|draft|note|notes|memo|letter)\b|\b(?:scrivi|prepara)\b[^.?!\n]{0,40}?\b(?:documento|bozza|nota|appunti|lettera)\b/i;
// Which planet a question is about, first match wins; a question is a `?` or a question word.
const PLANET_WORDS: Array<[Planet, RegExp]> = [
  ['booking', /\b(?:bookings?|appointments?|no-?shows?|occupancy|waitlist|prenotazion[ei]|appuntament[oi]|agenda)\b/i],
  ['sales', /\b(?:sales|deals?|pipeline|revenue|vendite|trattative|fatturato)\b/i],
  ['crm', /\b(?:customers?|clients?|leads?|clienti|clientela|contatti)\b/i],
  ['marketing', /\b(?:campaigns?|marketing|newsletters?|campagn[ae])\b/i],
  ['content', /\b(?:posts?|content|social|contenuti)\b/i],
  ['web', /\b(?:website|site|web|sito|visite)\b/i],
];
const QUESTION = /\?|\b(?:how|what|numbers?|figures|stats|status|come|quant[aeio]|andamento|numeri)\b/i;

const ABOUT = /\b(?:about|on|for|su|sul|sulla|sui|per)\s+(\S[^\n.?!]{1,80})/i;

/** The briefing card's button: handed back to this agent when clicked (rule 1). */
const SAVE_AS_DOCUMENT = { id: 'save_document', label: { en: 'Save as document', it: 'Salva come documento' }, verb: 'save_document', style: 'primary' } as const;

/** One line of someone's message: no mentions (they would wake someone), no tags, not too long. */
function flat(text: string, max = 200): string {
  const line = text.replace(/[@<>]/g, '').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
const quote = (text: string) => `“${flat(text)}”`;

export function offlinePlan({ agent, delivery, view, now = new Date() }: Input): OfflinePlan {
  const { message } = delivery;
  const { conversation } = view;
  const fromAgent = message.authorKind === 'agent';
  const openedHere = conversation.openedBy?.kind === 'agent' && conversation.openedBy.id === agent.id;
  const answer = (decision: TurnDecision): OfflinePlan => ({ calls: [], decision });

  const click = fromAgent ? undefined : cardEventOf(message.payload);
  if (click) return clicked(agent.name, conversation.id, click);

  if (fromAgent && openedHere && conversation.kind === 'thread' && conversation.status === 'open') {
    return answer({ kind: 'resolve', summary: `${message.authorName} answered: ${quote(message.body)}` });
  }
  if (fromAgent && openedHere && conversation.kind === 'delegation' && !conversation.resolutionMessageId) {
    return answer({ kind: 'relay', result: `${message.authorName} answered: ${quote(message.body)}` });
  }

  const ask = fromAgent ? null : ASK.exec(message.body);
  const target = ask && view.agents.find((a) => a.id !== agent.id && a.name.toLowerCase() === ask[1]!.trim().toLowerCase());
  if (ask && target) {
    const question = ask[2]!.replace(/[<>]/g, '').trim();
    if (conversation.kind === 'dm') {
      return answer({ kind: 'delegate', to: [target.name], task: question, body: `I asked ${target.name} in a separate conversation and will bring the answer back here.` });
    }
    if (conversation.kind === 'channel') {
      return answer({ kind: 'reply', body: `I asked ${target.name} in a side thread.\n<dm target="${target.name}">${question}</dm>` });
    }
  }

  if (!fromAgent && BRIEFING.test(message.body)) {
    const where = placeOf(view.conversation);
    return {
      calls: [
        {
          name: 'publish_result',
          input: {
            conversationId: conversation.id,
            message: `Here is what was said in ${where}, as a briefing.`,
            results: [{ type: 'briefing', data: briefingOf(agent.name, where, view, delivery, now), actions: [SAVE_AS_DOCUMENT] }],
          },
        },
      ],
      decision: { kind: 'answered' },
    };
  }

  const document = fromAgent ? null : DOCUMENT.exec(message.body);
  if (document) {
    const about = ABOUT.exec(message.body.slice(document.index + document[0].length))?.[1]?.trim();
    const title = about ? capitalize(flat(about, 80)) : `Draft by ${agent.name}`;
    return {
      calls: [
        {
          name: 'publish_artifact',
          input: { conversationId: conversation.id, kind: 'document', title, content: draftOf(agent.name, title, view, delivery), message: `A first draft of “${title}”, to edit.` },
        },
      ],
      decision: { kind: 'answered' },
    };
  }

  const planet = fromAgent || !QUESTION.test(message.body) ? undefined : PLANET_WORDS.find(([, words]) => words.test(message.body))?.[0];
  if (planet) return { calls: [{ name: 'planet_metrics', input: { planet } }], answerWithFigures: true, decision: { kind: 'answered' } };

  const ack = `Received: ${quote(message.body)}. I run on the offline model (no AI model is configured), so I only acknowledge messages like this one.`;
  if (!fromAgent) return answer({ kind: 'reply', body: `${ack} Ask me how bookings, customers or sales are doing, or for a briefing or a draft.` });
  // In a delegation an agent hears only who mentions it: answer the delegator by name.
  return answer({ kind: 'reply', body: conversation.kind === 'delegation' ? `@${message.authorName} ${ack}` : ack, done: true });
}

/** The decision alone, for callers that run no tools. */
interface CardClick {
  eventId: string;
  verb: string;
  label: string;
  cardData: Record<string, unknown>;
}

function cardEventOf(payload: Record<string, unknown> | undefined): CardClick | undefined {
  const event = payload?.cardEvent as Record<string, unknown> | undefined;
  if (!event || typeof event.eventId !== 'string' || typeof event.verb !== 'string') return undefined;
  const label = event.label;
  return {
    eventId: event.eventId,
    verb: event.verb,
    label: typeof label === 'string' ? label : label && typeof label === 'object' && typeof (label as { en?: unknown }).en === 'string' ? (label as { en: string }).en : event.verb,
    cardData: event.cardData && typeof event.cardData === 'object' ? (event.cardData as Record<string, unknown>) : {},
  };
}

function clicked(agentName: string, conversationId: string, click: CardClick): OfflinePlan {
  if (click.verb === SAVE_AS_DOCUMENT.verb) {
    const title = typeof click.cardData.title === 'string' ? click.cardData.title : 'Briefing';
    return {
      calls: [{ name: 'publish_artifact', input: { conversationId, kind: 'document', title, content: briefingMarkdown(click.cardData), message: `The briefing as a document: “${title}”.` } }],
      report: { eventId: click.eventId, status: 'done', outcome: `Saved as the document “${title}”.` },
      decision: { kind: 'answered' },
    };
  }
  return {
    calls: [],
    report: { eventId: click.eventId, status: 'failed', outcome: `${agentName} runs on the offline model and cannot do “${flat(click.label, 60)}”.` },
    decision: { kind: 'answered' },
  };
}

const PLACES = { dm: 'this direct message', thread: 'this side thread', delegation: 'this delegation' } as const;
const placeOf = (c: TurnInput['view']['conversation']) => (c.kind === 'channel' && c.name ? `#${c.name}` : PLACES[c.kind as keyof typeof PLACES] ?? 'this conversation');
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const joinNames = (names: string[]) => [...new Set(names)].join(', ');

/** The briefing it can honestly make: what it read, counted and listed, nothing interpreted. */
function briefingOf(agentName: string, where: string, view: TurnInput['view'], delivery: TurnInput['delivery'], now: Date) {
  const read = view.messages.filter((m) => m.id !== delivery.message.id && flat(m.body));
  const people = read.filter((m) => m.authorKind === 'person');
  const agents = read.filter((m) => m.authorKind === 'agent');
  // People's questions: an agent's message with a "?" is usually one quoting or answering them.
  const questions = people.filter((m) => m.body.includes('?'));
  const sections = [
    { heading: 'Questions asked', items: questions.slice(-5).map((m) => ({ text: flat(m.body), detail: m.authorName, tone: 'warning' as const })) },
    { heading: 'Latest', items: read.slice(-5).map((m) => ({ text: flat(m.body), detail: m.authorName })) },
  ].filter((s) => s.items.length > 0);
  const who = [people.length ? `${people.length} from people (${joinNames(people.map((m) => m.authorName))})` : '', agents.length ? `${agents.length} from agents (${joinNames(agents.map((m) => m.authorName))})` : '']
    .filter(Boolean)
    .join(', ');
  return {
    title: `Briefing: ${where}`,
    date: now.toISOString().slice(0, 10),
    summary: read.length
      ? `${read.length} recent messages: ${who}. Compiled by ${agentName} on the offline model, which lists what was said and does not interpret it.`
      : `Nothing was said here yet. Compiled by ${agentName} on the offline model.`,
    metrics: [
      { label: 'Messages', value: read.length },
      { label: 'From people', value: people.length },
      { label: 'From agents', value: agents.length },
      { label: 'Questions', value: questions.length },
    ],
    sections,
  };
}

/** A briefing card's data (as the card's click hands it back) as a markdown document. */
function briefingMarkdown(data: Record<string, unknown>): string {
  const lines: string[] = [`# ${typeof data.title === 'string' ? data.title : 'Briefing'}`, ''];
  if (typeof data.date === 'string') lines.push(`_${data.date}_`, '');
  if (typeof data.summary === 'string') lines.push(data.summary, '');
  const metrics = Array.isArray(data.metrics) ? (data.metrics as Array<{ label?: unknown; value?: unknown }>) : [];
  if (metrics.length) lines.push('## Numbers', '', ...metrics.map((m) => `- ${String(m.label)}: ${String(m.value)}`), '');
  for (const section of Array.isArray(data.sections) ? (data.sections as Array<{ heading?: unknown; items?: unknown }>) : []) {
    const items = Array.isArray(section.items) ? (section.items as Array<{ text?: unknown; detail?: unknown }>) : [];
    lines.push(`## ${String(section.heading)}`, '', ...items.map((i) => `- ${String(i.text)}${typeof i.detail === 'string' ? ` — ${i.detail}` : ''}`), '');
  }
  return lines.join('\n').trimEnd() + '\n';
}

/** The draft it can honestly write: the request and what was said, set out to be filled in. */
function draftOf(agentName: string, title: string, view: TurnInput['view'], delivery: TurnInput['delivery']): string {
  const said = view.messages.filter((m) => m.id !== delivery.message.id).slice(-8);
  return [
    `# ${title}`,
    '',
    `_An outline by ${agentName} on the offline model (no AI model is configured): it cannot write the text itself, so it sets out what was asked and what was said, for you to edit._`,
    '',
    '## What was asked',
    '',
    `> ${flat(delivery.message.body, 500)} — ${delivery.message.authorName}`,
    '',
    ...(said.length ? ['## From the conversation', '', ...said.map((m) => `- **${m.authorName}:** ${flat(m.body, 300)}`), ''] : []),
    '## Next steps',
    '',
    '- Write the text',
    '- Share it when it is ready',
    '',
  ].join('\n');
}

const english = createTranslator(en);

/** Rule 6's answer: a planet's figures as they were read, in words a person reads at a glance. */
export function figuresReply(figures: PlanetMetrics): string {
  const lines = Object.entries(figures.metrics).map(([id, metric]) => {
    const value = metricValue(metric, 'en', english);
    const context = [
      metric.previous != null ? `previous period ${metricValue({ value: metric.previous, unit: metric.unit }, 'en', english)}` : '',
      metric.benchmark != null ? `sector ${metricValue({ value: metric.benchmark, unit: metric.unit }, 'en', english)}` : '',
    ].filter(Boolean);
    return `- ${metricLabel(id, english)}: **${value}**${context.length ? ` (${context.join(', ')})` : ''}`;
  });
  return [
    `**${english(`planets.${figures.planet}`)}**: ${english(`health.${figures.health}`).toLowerCase()}.`,
    ...lines,
    ...(figures.reasons.length ? ['', ...figures.reasons] : []),
    '',
    `_Figures as read by the offline model (no AI model is configured): no interpretation beyond the sector benchmark._`,
  ].join('\n');
}
