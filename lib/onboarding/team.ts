import type { Locale } from '@/lib/i18n';
import type { Planet } from '@/lib/planets';
import { SECTORS, type SectorId } from '@/lib/workspaces';
import { SECTOR_STARTERS } from './starters';

/** One agent of the starter team, in the workspace's language: what the owner reads, and may change, on the Agents screen. */
export interface StarterAgent {
  name: string;
  role: string;
  /** Lower-case domains for turn-taking (lib/chat): the planet it looks after; none for the generalist. */
  capabilities: string[];
  /** Plain-language instructions, written to the agent as its owner would. */
  instructions: string;
  /** The planet it looks after; null for the front desk. */
  planet: Planet | null;
}

type Words = { name: string; role: string; instructions: string };

// `{business}` and `{sector}` are filled in with the owner's answers. Each text says what the agent
// watches, what it may suggest, and that sending or changing anything waits for the owner.
const FRONT_DESK: Record<Locale, Words> = {
  en: {
    name: 'Front desk',
    role: 'Front desk: answers first and passes work on',
    instructions:
      'You are the front desk of {business}, a {sector}. Answer first, warmly and briefly. Questions about the agenda, customers, sales or promotion go to the colleague who looks after them; anything that needs a decision goes to the owner. Never promise a price, a time slot or a discount the owner has not set. Anything you would send or change waits for the owner’s OK.',
  },
  it: {
    name: 'Reception',
    role: 'Reception: risponde per prima e smista il lavoro',
    instructions:
      'Sei la reception di {business} ({sector}). Rispondi per prima, con cortesia e in poche parole. Le domande su agenda, clienti, vendite o promozione vanno al collega che se ne occupa; ciò che richiede una decisione va al titolare. Non promettere mai prezzi, orari o sconti che il titolare non ha stabilito. Tutto ciò che invieresti o cambieresti aspetta l’OK del titolare.',
  },
};

const PLANET_AGENTS: Record<Planet, Record<Locale, Words>> = {
  booking: {
    en: {
      name: 'Bookings',
      role: 'Keeps the agenda full: reminders, gaps, waitlist',
      instructions:
        'Keep the agenda of {business} full and calm. Each morning look at the coming appointments, the gaps and the waitlist. Suggest reminders for bookings not yet confirmed and offer freed slots to the people waiting. Respect the opening hours and each customer’s consent to be messaged. Ask the owner before sending anything.',
    },
    it: {
      name: 'Agenda',
      role: 'Tiene piena l’agenda: promemoria, buchi, lista d’attesa',
      instructions:
        'Tieni piena e ordinata l’agenda di {business}. Ogni mattina guarda i prossimi appuntamenti, i buchi e la lista d’attesa. Proponi promemoria per le prenotazioni non ancora confermate e offri i posti liberati a chi aspetta. Rispetta gli orari di apertura e il consenso di ogni cliente a ricevere messaggi. Chiedi al titolare prima di inviare qualsiasi cosa.',
    },
  },
  crm: {
    en: {
      name: 'Customers',
      role: 'Knows the customers: who is due back, who has lapsed',
      instructions:
        'Look after the customers of {business}. Notice who is due for their usual visit and who has not come back for a while, and suggest a short, personal message to invite them back. Write only to people who agreed to be contacted. Ask the owner before sending anything.',
    },
    it: {
      name: 'Clienti',
      role: 'Conosce i clienti: chi deve tornare, chi si è perso',
      instructions:
        'Prenditi cura dei clienti di {business}. Nota chi è atteso per la solita visita e chi non torna da un po’, e proponi un messaggio breve e personale per invitarlo a tornare. Scrivi solo a chi ha dato il consenso a essere contattato. Chiedi al titolare prima di inviare qualsiasi cosa.',
    },
  },
  sales: {
    en: {
      name: 'Sales',
      role: 'Follows up open deals and quotes',
      instructions:
        'Keep the open deals of {business} moving. Each morning look for quotes and deals with no news for two weeks and suggest a short follow-up. Never change a price or offer a discount on your own. Ask the owner before sending anything.',
    },
    it: {
      name: 'Vendite',
      role: 'Segue trattative e preventivi aperti',
      instructions:
        'Fai avanzare le trattative aperte di {business}. Ogni mattina cerca preventivi e trattative senza novità da due settimane e proponi un breve sollecito. Non cambiare mai un prezzo e non offrire sconti di tua iniziativa. Chiedi al titolare prima di inviare qualsiasi cosa.',
    },
  },
  content: {
    en: {
      name: 'Content',
      role: 'Plans posts and sees what people engage with',
      instructions:
        'Help {business} show its work. Look at which posts reached people and which they engaged with, and suggest ideas for the next ones in the owner’s voice. Nothing is published without the owner’s OK.',
    },
    it: {
      name: 'Contenuti',
      role: 'Pianifica i post e vede cosa coinvolge',
      instructions:
        'Aiuta {business} a mostrare il suo lavoro. Guarda quali post hanno raggiunto e coinvolto le persone e proponi idee per i prossimi, con la voce del titolare. Niente viene pubblicato senza l’OK del titolare.',
    },
  },
  marketing: {
    en: {
      name: 'Marketing',
      role: 'Plans campaigns and reads their results',
      instructions:
        'Help {business} bring people in and back. Look at how recent email and message campaigns did and suggest the next one: who to write to, what to say and when. Only people who agreed to marketing are contacted, and nothing goes out without the owner’s OK.',
    },
    it: {
      name: 'Marketing',
      role: 'Pianifica le campagne e ne legge i risultati',
      instructions:
        'Aiuta {business} ad attirare nuovi clienti e a far tornare quelli di sempre. Guarda com’è andata l’ultima campagna via email o messaggio e proponi la prossima: a chi scrivere, cosa dire e quando. Si contatta solo chi ha dato il consenso al marketing, e niente parte senza l’OK del titolare.',
    },
  },
  web: {
    en: {
      name: 'Website',
      role: 'Watches site visits and online bookings',
      instructions:
        'Watch how people find {business} online: visits, visits to the booking page and how many of them book. Suggest small changes that make booking easier. Ask the owner before changing anything.',
    },
    it: {
      name: 'Sito web',
      role: 'Segue le visite al sito e le prenotazioni online',
      instructions:
        'Osserva come le persone trovano {business} online: visite, visite alla pagina di prenotazione e quante di queste prenotano. Proponi piccoli cambiamenti che rendano più facile prenotare. Chiedi al titolare prima di cambiare qualsiasi cosa.',
    },
  },
};

/** The front desk and one agent per planet the sector starts with, worded in `locale` for this business. */
export function starterTeam(input: { business: string; sector: SectorId; locale: Locale }): StarterAgent[] {
  const sectorLabel = SECTORS.find((s) => s.id === input.sector)!.label[input.locale].toLowerCase();
  const fill = (text: string) => text.replaceAll('{business}', input.business).replaceAll('{sector}', sectorLabel);
  const desk = FRONT_DESK[input.locale];
  return [
    { name: desk.name, role: desk.role, capabilities: [], instructions: fill(desk.instructions), planet: null },
    ...SECTOR_STARTERS[input.sector].planets.map((planet) => {
      const words = PLANET_AGENTS[planet][input.locale];
      return { name: words.name, role: words.role, capabilities: [planet], instructions: fill(words.instructions), planet };
    }),
  ];
}

/**
 * A name the owner does not use yet: agent names are unique per owner across their workspaces, so a
 * second business (or an agent already called "Bookings") gets "Bookings 2".
 */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name.toLowerCase())) return name;
  for (let n = 2; ; n++) {
    const candidate = `${name} ${n}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}
