import type { ActionWorkspace } from './types';

/**
 * What customers receive, in the workspace's language (not the reader's: the owner approves the very
 * words the customer will read). Short enough for one SMS where possible.
 */
const texts = {
  it: {
    reminder: (v: Vars) => `Ciao ${v.first}, ti ricordiamo l'appuntamento da ${v.business} ${v.when} per ${v.service}. Se devi spostarlo, rispondi a questo messaggio.`,
    reminderSubject: (v: Vars) => `Promemoria: ${v.service} ${v.when}`,
    waitlist: (v: Vars) => `Ciao ${v.first}, si è liberato un posto da ${v.business}: ${v.when} per ${v.service}. Ti interessa? Rispondi SÌ e te lo teniamo.`,
    waitlistSubject: (v: Vars) => `Si è liberato un posto ${v.when}`,
    winBack: (v: Vars) =>
      `Ciao ${v.first}, è da un po' che non ti vediamo da ${v.business}! Ti fissiamo il prossimo appuntamento${v.service ? ` per ${v.service}` : ''}? Rispondi a questo messaggio e ti troviamo un posto.`,
    winBackSubject: (v: Vars) => `Ci manchi da ${v.business}`,
    followUp: (v: Vars) =>
      `Ciao ${v.first}, ${v.deal ? `ti riscriviamo per "${v.deal}"` : 'ti riscriviamo per la proposta di cui abbiamo parlato'}: hai avuto modo di pensarci? Per qualsiasi domanda siamo qui. A presto, ${v.business}`,
    followUpSubject: (v: Vars) => v.deal || `La nostra proposta, da ${v.business}`,
    at: 'alle',
  },
  en: {
    reminder: (v: Vars) => `Hi ${v.first}, a reminder of your appointment at ${v.business} ${v.when} for ${v.service}. If you need to move it, reply to this message.`,
    reminderSubject: (v: Vars) => `Reminder: ${v.service} ${v.when}`,
    waitlist: (v: Vars) => `Hi ${v.first}, a slot just opened at ${v.business}: ${v.when} for ${v.service}. Want it? Reply YES and we'll hold it for you.`,
    waitlistSubject: (v: Vars) => `A slot opened ${v.when}`,
    winBack: (v: Vars) =>
      `Hi ${v.first}, we haven't seen you at ${v.business} for a while! Shall we book your next ${v.service || 'appointment'}? Reply to this message and we'll find you a slot.`,
    winBackSubject: (v: Vars) => `We miss you at ${v.business}`,
    followUp: (v: Vars) =>
      `Hi ${v.first}, following up on ${v.deal ? `"${v.deal}"` : 'what we discussed'}: have you had a chance to think about it? Happy to answer any questions. Best, ${v.business}`,
    followUpSubject: (v: Vars) => v.deal || `Following up, from ${v.business}`,
    at: 'at',
  },
};

type Vars = Record<string, string>;

/**
 * What each message is about. `service` of a win-back is null when the customer's last service is not
 * known (the sentence then speaks of the next appointment); `deal` of a follow-up is the deal's topic
 * (dealTopic), null when its title is nothing but the customer's name.
 */
export interface MessageVars {
  reminder: { first: string; when: string; service: string };
  waitlist: { first: string; when: string; service: string };
  winBack: { first: string; service: string | null };
  followUp: { first: string; deal: string | null };
}
export type MessageKind = keyof MessageVars;

export function composeMessage<K extends MessageKind>(workspace: ActionWorkspace, kind: K, vars: MessageVars[K]): { body: string; subject: string } {
  const t = texts[workspace.locale];
  const all: Vars = { business: workspace.name };
  for (const [key, value] of Object.entries(vars)) all[key] = value ?? '';
  return { body: t[kind](all), subject: t[`${kind}Subject`](all) };
}

/**
 * A deal's title without its customer's name: "Pacchetto sposa – Giorgia Lombardi" is "Pacchetto
 * sposa" in a message to Giorgia or next to her name, which would otherwise say it twice. Null when
 * nothing but the name (and the dash or colon that joined it) is left.
 */
export function dealTopic(title: string, customerName: string): string | null {
  const name = customerName.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  const topic = (name ? title.replace(new RegExp(`\\(\\s*${name}\\s*\\)|${name}`, 'gi'), ' ') : title)
    // "A – name – B" keeps one joiner; one left at either end goes.
    .replace(/\s*([-–—:|,/·])\s*(?:[-–—:|,/·]\s*)+/g, ' $1 ')
    .replace(/^[\s\-–—:|,/·]+|[\s\-–—:|,/·]+$/g, '')
    .replace(/\s{2,}/g, ' ');
  return topic || null;
}

/** "martedì 1 dicembre alle 10:00", "Tuesday 1 December at 10:00", in the workspace's zone. */
export function formatWhen(workspace: ActionWorkspace, instant: Date | string): string {
  const date = new Date(instant);
  const day = new Intl.DateTimeFormat(workspace.locale === 'it' ? 'it-IT' : 'en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    timeZone: workspace.timeZone,
  }).format(date);
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: workspace.timeZone }).format(date);
  return `${day} ${texts[workspace.locale].at} ${time}`;
}

export const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;
