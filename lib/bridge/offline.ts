import { en } from '@/lib/i18n/messages/en';
import { it } from '@/lib/i18n/messages/it';
import { createTranslator, type Locale } from '@/lib/i18n';
import { healthReason, metricLabel, metricValue, type Planet, type PlanetMetrics } from '@/lib/planets';
import { SECTORS } from '@/lib/workspaces';
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
 * It answers in the language the message is written in, Italian or English (`languageOf`: whichever
 * language's common words the message has more of; English when neither), so a person who writes in
 * Italian reads Italian back: replies, cards, drafts and figures alike.
 *
 * Publishing and reading go through the registry's tools (publish_result, publish_artifact,
 * planet_metrics), which the turn runs through the agent runtime like a model's calls; the plan says
 * which, with what input.
 */

export interface OfflinePlan {
  /** The language of the message, which the turn answers in. */
  language: Locale;
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

const ITALIAN_WORDS = /\b(?:il|lo|la|gli|le|un|una|di|del|della|dei|che|chi|come|cosa|per|con|non|sono|va|vanno|questa|questo|settimana|oggi|domani|ciao|grazie|mi|ti|ci|puoi|fai|scrivi|prepara|chiedi|quanti|quante|quanto|siamo|abbiamo)\b/gi;
const ENGLISH_WORDS = /\b(?:the|a|an|of|to|and|is|are|how|what|who|this|that|week|today|tomorrow|please|can|could|you|me|my|for|with|hi|hello|thanks|we|our|do|does)\b/gi;

/** The language a message is written in, by its common words: Italian when it has more Italian ones. */
export function languageOf(text: string): Locale {
  const count = (words: RegExp) => text.match(words)?.length ?? 0;
  return count(ITALIAN_WORDS) > count(ENGLISH_WORDS) ? 'it' : 'en';
}

/** Everything the offline model says, in both languages. */
const ENGLISH = {
  answered: (who: string, what: string) => `${who} answered: ${what}`,
  askedInDm: (name: string) => `I asked ${name} in a separate conversation and will bring the answer back here.`,
  askedInThread: (name: string) => `I asked ${name} in a side thread.`,
  briefingIntro: (where: string) => `Here is what was said in ${where}, as a briefing.`,
  draftBy: (agent: string) => `Draft by ${agent}`,
  draftIntro: (title: string) => `A first draft of “${title}”, to edit.`,
  received: (what: string) => `Received: ${what}. I run on the offline model (no AI model is configured), so I only acknowledge messages like this one.`,
  canDo: 'Ask me how bookings, customers or sales are doing, or for a briefing or a draft.',
  briefingDocument: (title: string) => `The briefing as a document: “${title}”.`,
  saved: (title: string) => `Saved as the document “${title}”.`,
  cannot: (agent: string, label: string) => `${agent} runs on the offline model and cannot do “${label}”.`,
  didNotWork: (error: string) => `It did not work: ${error}`,
  couldNotRead: (error: string) => `I could not read the figures: ${error}`,
  couldNotPublish: (error: string) => `I could not publish it: ${error}`,
  unknownError: 'unknown error',
  places: { dm: 'this direct message', thread: 'this side thread', delegation: 'this delegation', other: 'this conversation' },
  briefing: 'Briefing',
  briefingTitle: (where: string) => `Briefing: ${where}`,
  questionsAsked: 'Questions asked',
  latest: 'Latest',
  fromPeople: (n: number, names: string) => `${n} from people (${names})`,
  fromAgents: (n: number, names: string) => `${n} from agents (${names})`,
  summary: (n: number, who: string, agent: string) => `${n} recent messages: ${who}. Compiled by ${agent} on the offline model, which lists what was said and does not interpret it.`,
  nothingYet: (agent: string) => `Nothing was said here yet. Compiled by ${agent} on the offline model.`,
  counts: { messages: 'Messages', people: 'From people', agents: 'From agents', questions: 'Questions' },
  numbers: 'Numbers',
  outline: (agent: string) => `_An outline by ${agent} on the offline model (no AI model is configured): it cannot write the text itself, so it sets out what was asked and what was said, for you to edit._`,
  whatWasAsked: 'What was asked',
  fromConversation: 'From the conversation',
  nextSteps: ['## Next steps', '', '- Write the text', '- Share it when it is ready'],
  previous: (v: string) => `previous period ${v}`,
  sector: (v: string) => `sector ${v}`,
  figuresNote: '_Figures as read by the offline model (no AI model is configured): no interpretation beyond the sector benchmark._',
};

const WORDS: Record<Locale, typeof ENGLISH> = {
  en: ENGLISH,
  it: {
    answered: (who: string, what: string) => `${who} ha risposto: ${what}`,
    askedInDm: (name: string) => `Ho chiesto a ${name} in una conversazione a parte e riporto qui la risposta.`,
    askedInThread: (name: string) => `Ho chiesto a ${name} in un thread laterale.`,
    briefingIntro: (where: string) => `Ecco cosa si è detto in ${where}, in un riepilogo.`,
    draftBy: (agent: string) => `Bozza di ${agent}`,
    draftIntro: (title: string) => `Una prima bozza di “${title}”, da modificare.`,
    received: (what: string) => `Ricevuto: ${what}. Lavoro con il modello offline (non è configurato un modello AI), quindi a messaggi come questo posso solo rispondere che li ho ricevuti.`,
    canDo: 'Chiedimi come vanno prenotazioni, clienti o vendite, oppure un riepilogo o una bozza.',
    briefingDocument: (title: string) => `Il riepilogo come documento: “${title}”.`,
    saved: (title: string) => `Salvato come documento “${title}”.`,
    cannot: (agent: string, label: string) => `${agent} lavora con il modello offline e non può fare “${label}”.`,
    didNotWork: (error: string) => `Non ha funzionato: ${error}`,
    couldNotRead: (error: string) => `Non sono riuscito a leggere i numeri: ${error}`,
    couldNotPublish: (error: string) => `Non sono riuscito a pubblicarlo: ${error}`,
    unknownError: 'errore sconosciuto',
    places: { dm: 'questo messaggio diretto', thread: 'questo thread laterale', delegation: 'questa delega', other: 'questa conversazione' },
    briefing: 'Riepilogo',
    briefingTitle: (where: string) => `Riepilogo: ${where}`,
    questionsAsked: 'Domande fatte',
    latest: 'Ultimi messaggi',
    fromPeople: (n: number, names: string) => `${n} da persone (${names})`,
    fromAgents: (n: number, names: string) => `${n} da agenti (${names})`,
    summary: (n: number, who: string, agent: string) => `${n} messaggi recenti: ${who}. Raccolti da ${agent} con il modello offline, che elenca cosa si è detto e non lo interpreta.`,
    nothingYet: (agent: string) => `Qui non si è ancora detto nulla. Raccolto da ${agent} con il modello offline.`,
    counts: { messages: 'Messaggi', people: 'Da persone', agents: 'Da agenti', questions: 'Domande' },
    numbers: 'Numeri',
    outline: (agent: string) => `_Una traccia di ${agent} con il modello offline (non è configurato un modello AI): non sa scrivere il testo, quindi mette in ordine cosa è stato chiesto e cosa si è detto, da modificare._`,
    whatWasAsked: 'Cosa è stato chiesto',
    fromConversation: 'Dalla conversazione',
    nextSteps: ['## Prossimi passi', '', '- Scrivere il testo', '- Condividerlo quando è pronto'],
    previous: (v: string) => `periodo precedente ${v}`,
    sector: (v: string) => `settore ${v}`,
    figuresNote: '_Numeri letti dal modello offline (non è configurato un modello AI): nessuna interpretazione oltre al riferimento del settore._',
  },
};

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
  const language = languageOf(message.body);
  const words = WORDS[language];
  const answer = (decision: TurnDecision): OfflinePlan => ({ language, calls: [], decision });

  const click = fromAgent ? undefined : cardEventOf(message.payload);
  if (click) return clicked(agent.name, conversation.id, click, language);

  if (fromAgent && openedHere && conversation.kind === 'thread' && conversation.status === 'open') {
    return answer({ kind: 'resolve', summary: words.answered(message.authorName, quote(message.body)) });
  }
  if (fromAgent && openedHere && conversation.kind === 'delegation' && !conversation.resolutionMessageId) {
    return answer({ kind: 'relay', result: words.answered(message.authorName, quote(message.body)) });
  }

  const ask = fromAgent ? null : ASK.exec(message.body);
  const target = ask && view.agents.find((a) => a.id !== agent.id && a.name.toLowerCase() === ask[1]!.trim().toLowerCase());
  if (ask && target) {
    const question = ask[2]!.replace(/[<>]/g, '').trim();
    if (conversation.kind === 'dm') {
      return answer({ kind: 'delegate', to: [target.name], task: question, body: words.askedInDm(target.name) });
    }
    if (conversation.kind === 'channel') {
      return answer({ kind: 'reply', body: `${words.askedInThread(target.name)}\n<dm target="${target.name}">${question}</dm>` });
    }
  }

  if (!fromAgent && BRIEFING.test(message.body)) {
    const where = placeOf(view.conversation, language);
    return {
      language,
      calls: [
        {
          name: 'publish_result',
          input: {
            conversationId: conversation.id,
            message: words.briefingIntro(where),
            results: [{ type: 'briefing', data: briefingOf(agent.name, where, view, delivery, now, language), actions: [SAVE_AS_DOCUMENT] }],
          },
        },
      ],
      decision: { kind: 'answered' },
    };
  }

  const document = fromAgent ? null : DOCUMENT.exec(message.body);
  if (document) {
    const about = ABOUT.exec(message.body.slice(document.index + document[0].length))?.[1]?.trim();
    const title = about ? capitalize(flat(about, 80)) : words.draftBy(agent.name);
    return {
      language,
      calls: [
        {
          name: 'publish_artifact',
          input: { conversationId: conversation.id, kind: 'document', title, content: draftOf(agent.name, title, view, delivery, language), message: words.draftIntro(title) },
        },
      ],
      decision: { kind: 'answered' },
    };
  }

  const planet = fromAgent || !QUESTION.test(message.body) ? undefined : PLANET_WORDS.find(([, words]) => words.test(message.body))?.[0];
  if (planet) return { language, calls: [{ name: 'planet_metrics', input: { planet } }], answerWithFigures: true, decision: { kind: 'answered' } };

  const ack = words.received(quote(message.body));
  if (!fromAgent) return answer({ kind: 'reply', body: `${ack} ${words.canDo}` });
  // In a delegation an agent hears only who mentions it: answer the delegator by name.
  return answer({ kind: 'reply', body: conversation.kind === 'delegation' ? `@${message.authorName} ${ack}` : ack, done: true });
}

/** The decision alone, for callers that run no tools. */
interface CardClick {
  eventId: string;
  verb: string;
  /** The button's label in each language (the same text when it has one only). */
  label: Record<Locale, string>;
  cardData: Record<string, unknown>;
}

function cardEventOf(payload: Record<string, unknown> | undefined): CardClick | undefined {
  const event = payload?.cardEvent as Record<string, unknown> | undefined;
  if (!event || typeof event.eventId !== 'string' || typeof event.verb !== 'string') return undefined;
  const label = event.label as unknown;
  const named = (locale: Locale) =>
    typeof label === 'string' ? label : label && typeof label === 'object' && typeof (label as Record<string, unknown>)[locale] === 'string' ? (label as Record<Locale, string>)[locale] : (event.verb as string);
  return {
    eventId: event.eventId,
    verb: event.verb,
    label: { en: named('en'), it: named('it') },
    cardData: event.cardData && typeof event.cardData === 'object' ? (event.cardData as Record<string, unknown>) : {},
  };
}

function clicked(agentName: string, conversationId: string, click: CardClick, language: Locale): OfflinePlan {
  const words = WORDS[language];
  if (click.verb === SAVE_AS_DOCUMENT.verb) {
    const title = typeof click.cardData.title === 'string' ? click.cardData.title : words.briefing;
    return {
      language,
      calls: [{ name: 'publish_artifact', input: { conversationId, kind: 'document', title, content: briefingMarkdown(click.cardData, language), message: words.briefingDocument(title) } }],
      report: { eventId: click.eventId, status: 'done', outcome: words.saved(title) },
      decision: { kind: 'answered' },
    };
  }
  return {
    language,
    calls: [],
    report: { eventId: click.eventId, status: 'failed', outcome: words.cannot(agentName, flat(click.label[language], 60)) },
    decision: { kind: 'answered' },
  };
}

const placeOf = (c: TurnInput['view']['conversation'], language: Locale) => {
  const places = WORDS[language].places;
  return c.kind === 'channel' && c.name ? `#${c.name}` : c.kind === 'dm' || c.kind === 'thread' || c.kind === 'delegation' ? places[c.kind] : places.other;
};
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const joinNames = (names: string[]) => [...new Set(names)].join(', ');

/** The briefing it can honestly make: what it read, counted and listed, nothing interpreted. */
function briefingOf(agentName: string, where: string, view: TurnInput['view'], delivery: TurnInput['delivery'], now: Date, language: Locale) {
  const words = WORDS[language];
  const read = view.messages.filter((m) => m.id !== delivery.message.id && flat(m.body));
  const people = read.filter((m) => m.authorKind === 'person');
  const agents = read.filter((m) => m.authorKind === 'agent');
  // People's questions: an agent's message with a "?" is usually one quoting or answering them.
  const questions = people.filter((m) => m.body.includes('?'));
  const sections = [
    { heading: words.questionsAsked, items: questions.slice(-5).map((m) => ({ text: flat(m.body), detail: m.authorName, tone: 'warning' as const })) },
    { heading: words.latest, items: read.slice(-5).map((m) => ({ text: flat(m.body), detail: m.authorName })) },
  ].filter((s) => s.items.length > 0);
  const who = [people.length ? words.fromPeople(people.length, joinNames(people.map((m) => m.authorName))) : '', agents.length ? words.fromAgents(agents.length, joinNames(agents.map((m) => m.authorName))) : '']
    .filter(Boolean)
    .join(', ');
  return {
    title: words.briefingTitle(where),
    date: now.toISOString().slice(0, 10),
    summary: read.length ? words.summary(read.length, who, agentName) : words.nothingYet(agentName),
    metrics: [
      { label: words.counts.messages, value: read.length },
      { label: words.counts.people, value: people.length },
      { label: words.counts.agents, value: agents.length },
      { label: words.counts.questions, value: questions.length },
    ],
    sections,
  };
}

/** A briefing card's data (as the card's click hands it back) as a markdown document. */
function briefingMarkdown(data: Record<string, unknown>, language: Locale): string {
  const words = WORDS[language];
  const lines: string[] = [`# ${typeof data.title === 'string' ? data.title : words.briefing}`, ''];
  if (typeof data.date === 'string') lines.push(`_${data.date}_`, '');
  if (typeof data.summary === 'string') lines.push(data.summary, '');
  const metrics = Array.isArray(data.metrics) ? (data.metrics as Array<{ label?: unknown; value?: unknown }>) : [];
  if (metrics.length) lines.push(`## ${words.numbers}`, '', ...metrics.map((m) => `- ${String(m.label)}: ${String(m.value)}`), '');
  for (const section of Array.isArray(data.sections) ? (data.sections as Array<{ heading?: unknown; items?: unknown }>) : []) {
    const items = Array.isArray(section.items) ? (section.items as Array<{ text?: unknown; detail?: unknown }>) : [];
    lines.push(`## ${String(section.heading)}`, '', ...items.map((i) => `- ${String(i.text)}${typeof i.detail === 'string' ? ` — ${i.detail}` : ''}`), '');
  }
  return lines.join('\n').trimEnd() + '\n';
}

/** The draft it can honestly write: the request and what was said, set out to be filled in. */
function draftOf(agentName: string, title: string, view: TurnInput['view'], delivery: TurnInput['delivery'], language: Locale): string {
  const words = WORDS[language];
  const said = view.messages.filter((m) => m.id !== delivery.message.id).slice(-8);
  return [
    `# ${title}`,
    '',
    words.outline(agentName),
    '',
    `## ${words.whatWasAsked}`,
    '',
    `> ${flat(delivery.message.body, 500)} — ${delivery.message.authorName}`,
    '',
    ...(said.length ? [`## ${words.fromConversation}`, '', ...said.map((m) => `- **${m.authorName}:** ${flat(m.body, 300)}`), ''] : []),
    ...words.nextSteps,
    '',
  ].join('\n');
}

const TRANSLATE = { en: createTranslator(en, 'en'), it: createTranslator(it, 'it') };

/**
 * Rule 6's answer: a planet's figures as they were read, in words a person reads at a glance, ending
 * with why the planet is not good where it is not: the health rules' findings, worded as the planet
 * page words them.
 */
export function figuresReply(figures: PlanetMetrics, language: Locale): string {
  const t = TRANSLATE[language];
  const words = WORDS[language];
  const lines = Object.entries(figures.metrics).map(([id, metric]) => {
    const value = metricValue(metric, language, t);
    const context = [
      metric.previous != null ? words.previous(metricValue({ value: metric.previous, unit: metric.unit }, language, t)) : '',
      metric.benchmark != null ? words.sector(metricValue({ value: metric.benchmark, unit: metric.unit }, language, t)) : '',
    ].filter(Boolean);
    return `- ${metricLabel(id, t)}: **${value}**${context.length ? ` (${context.join(', ')})` : ''}`;
  });
  const sector = SECTORS.find((s) => s.id === figures.sector)?.label[language] ?? figures.sector;
  const reasons = figures.findings.map((f) => {
    const reason = healthReason(f, sector, language, t);
    return `${reason.charAt(0).toLocaleUpperCase(language)}${reason.slice(1)}.`;
  });
  return [
    `**${t(`planets.${figures.planet}`)}**: ${t(`health.${figures.health}`).toLowerCase()}.`,
    ...lines,
    ...(reasons.length ? ['', ...reasons] : []),
    '',
    words.figuresNote,
  ].join('\n');
}

/** What the turn says when a planned call did not go through, in the message's language. */
export function offlineFailure(language: Locale, kind: 'report' | 'figures' | 'publish', error: string | undefined): string {
  const words = WORDS[language];
  const why = error ?? words.unknownError;
  return kind === 'report' ? words.didNotWork(why) : kind === 'figures' ? words.couldNotRead(why) : words.couldNotPublish(why);
}
