import { createRandom, type Random } from './random';
import type { Channel } from '@/lib/actions';
import type { AppointmentStatus, CampaignStatus, DealStatus, LeadSource, LeadStatus, PostChannel, PostStatus, WaitlistStatus } from './types';

/**
 * Demo data for "Studio Aurora", a hair salon in Italy: 120 days of history and 14 days ahead.
 *
 * Pure and deterministic: the same seed and the same `today` give the same data, row for row. Times are
 * local wall-clock times ('YYYY-MM-DDTHH:MM:SS') in the workspace's time zone; the seeder turns them
 * into instants, so the generator needs no time-zone arithmetic. References between rows are array
 * indexes; the seeder gives every row a fresh UUID.
 *
 * The data is anchored at `today 07:00` (the owner opening the app with a coffee): everything before is
 * history, every appointment from today on is still to come. The next 14 days hold every kind of
 * booking; beyond them, as in a real salon's book, only the next visits clients booked at checkout
 * (without them, recent visits would look un-rebooked).
 */

export type LocalTime = string;

export interface DemoService {
  name: string;
  category: string;
  durationMinutes: number;
  priceCents: number;
}
export interface DemoStaff {
  name: string;
}
export interface DemoOpeningHours {
  weekday: number; // ISO: 1 = Monday … 7 = Sunday
  opens: string;
  closes: string;
}
export interface DemoCustomer {
  name: string;
  email: string | null;
  phone: string | null;
  consentMarketing: boolean;
  consentMessages: boolean;
  vip: boolean;
  createdAt: LocalTime;
}
export interface DemoAppointment {
  customer: number;
  service: number;
  staff: number;
  startsAt: LocalTime;
  endsAt: LocalTime;
  status: AppointmentStatus;
  priceCents: number;
  createdAt: LocalTime;
  cancelledAt: LocalTime | null;
  reminderSentAt: LocalTime | null;
}
export interface DemoWaitlistEntry {
  customer: number;
  service: number;
  windowStart: LocalTime;
  windowEnd: LocalTime;
  status: WaitlistStatus;
  createdAt: LocalTime;
  notifiedAt: LocalTime | null;
}
export interface DemoLead {
  name: string;
  email: string | null;
  phone: string | null;
  source: LeadSource;
  status: LeadStatus;
  createdAt: LocalTime;
}
export interface DemoStage {
  name: string;
  position: number;
  probability: number;
}
export interface DemoDeal {
  title: string;
  customer: number | null;
  stage: number;
  valueCents: number;
  status: DealStatus;
  lastActivityAt: LocalTime;
  createdAt: LocalTime;
  closedAt: LocalTime | null;
}
export interface DemoPost {
  channel: PostChannel;
  title: string;
  status: PostStatus;
  scheduledAt: LocalTime | null;
  publishedAt: LocalTime | null;
  reach: number;
  engagements: number;
  createdAt: LocalTime;
}
export interface DemoCampaign {
  name: string;
  channel: Channel;
  status: CampaignStatus;
  scheduledAt: LocalTime | null;
  sentAt: LocalTime | null;
  recipients: number;
  opens: number;
  clicks: number;
  conversions: number;
  createdAt: LocalTime;
}
export interface DemoSiteDay {
  day: string;
  visits: number;
  bookingPageVisits: number;
  conversions: number;
}

export interface DemoData {
  /** The local date the data is anchored on. */
  today: string;
  /** The local "now" of the data: today at 07:00. */
  reference: LocalTime;
  services: DemoService[];
  staff: DemoStaff[];
  openingHours: DemoOpeningHours[];
  customers: DemoCustomer[];
  appointments: DemoAppointment[];
  waitlist: DemoWaitlistEntry[];
  leads: DemoLead[];
  pipelineStages: DemoStage[];
  deals: DemoDeal[];
  posts: DemoPost[];
  campaigns: DemoCampaign[];
  siteDailyStats: DemoSiteDay[];
}

export interface DemoOptions {
  /** How many customers (default 300). Benchmarks scale this up. */
  customers?: number;
  /** How many stylists (default 4); more staff make room for more appointments. */
  staff?: number;
}

export const DEMO_SEED = 20261130;
export const HISTORY_DAYS = 120;
export const FUTURE_DAYS = 14;
/** How far ahead a visit booked at checkout can be (the longest cadence plus its jitter). */
export const BOOKED_AHEAD_DAYS = 130;
/** Tuesday to Saturday, 9:00 to 19:00 — the usual week of an Italian salon. */
export const OPEN_WEEKDAYS = [2, 3, 4, 5, 6];
const OPENS = 9 * 60;
const CLOSES = 19 * 60;
const REFERENCE_MINUTE = 7 * 60;
const SLOT = 15;
const DAY = 1440;

// Calendar arithmetic on local wall-clock time: minutes since 1970-01-01T00:00 as if it were UTC.
const dayNumber = (date: string) => Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) / 86_400_000;
const formatDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
const format = (minutes: number): LocalTime => new Date(minutes * 60_000).toISOString().slice(0, 19);
const isoWeekday = (day: number) => ((new Date(day * 86_400_000).getUTCDay() + 6) % 7) + 1;
const isOpen = (day: number) => OPEN_WEEKDAYS.includes(isoWeekday(day));
/** A moment during the waking day (8:00–21:00) of `day`: when people book, cancel and write. */
const daytime = (r: Random, day: number) => day * DAY + r.int(8 * 60, 21 * 60);
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

const SERVICES: DemoService[] = [
  { name: 'Taglio donna', category: 'Taglio', durationMinutes: 45, priceCents: 3800 },
  { name: 'Piega', category: 'Piega', durationMinutes: 30, priceCents: 2500 },
  { name: 'Colore', category: 'Colore', durationMinutes: 90, priceCents: 6500 },
  { name: 'Balayage', category: 'Colore', durationMinutes: 150, priceCents: 12000 },
  { name: 'Taglio uomo', category: 'Taglio', durationMinutes: 30, priceCents: 2200 },
  { name: 'Trattamento ristrutturante', category: 'Trattamenti', durationMinutes: 45, priceCents: 3500 },
];
const [TAGLIO_DONNA, PIEGA, COLORE, BALAYAGE, TAGLIO_UOMO, TRATTAMENTO] = [0, 1, 2, 3, 4, 5];

const STAFF_NAMES = ['Giulia Rossi', 'Marco Ferri', 'Chiara Bellini', 'Elena Moretti'];
const MEN_STYLIST = 1; // Marco does most men's cuts

const FEMALE = [
  'Giulia', 'Francesca', 'Chiara', 'Sara', 'Martina', 'Valentina', 'Alessia', 'Elena', 'Federica', 'Silvia', 'Laura', 'Paola',
  'Roberta', 'Anna', 'Maria', 'Elisa', 'Giorgia', 'Alice', 'Beatrice', 'Camilla', 'Sofia', 'Aurora', 'Ginevra', 'Noemi',
  'Arianna', 'Serena', 'Simona', 'Daniela', 'Monica', 'Cristina', 'Barbara', 'Claudia', 'Ilaria', 'Veronica', 'Michela',
  'Lucia', 'Marta', 'Irene', 'Eleonora', 'Rita', 'Gabriella', 'Antonella', 'Patrizia', 'Manuela', 'Teresa',
];
const MALE = [
  'Marco', 'Luca', 'Andrea', 'Matteo', 'Alessandro', 'Francesco', 'Lorenzo', 'Davide', 'Simone', 'Federico', 'Riccardo',
  'Stefano', 'Giuseppe', 'Giovanni', 'Antonio', 'Paolo', 'Roberto', 'Fabio', 'Massimo', 'Nicola', 'Emanuele', 'Tommaso',
  'Leonardo', 'Gabriele', 'Filippo', 'Pietro', 'Daniele', 'Michele', 'Claudio', 'Enrico',
];
const SURNAMES = [
  'Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo',
  'Conti', 'De Luca', 'Mancini', 'Costa', 'Giordano', 'Rizzo', 'Lombardi', 'Moretti', 'Barbieri', 'Fontana', 'Santoro',
  'Mariani', 'Rinaldi', 'Caruso', 'Ferrara', 'Galli', 'Martini', 'Leone', 'Longo', 'Gentile', 'Martinelli', 'Vitale',
  'Lombardo', 'Serra', 'Coppola', 'De Santis', "D'Angelo", 'Marchetti', 'Parisi', 'Villa', 'Conte', 'Ferraro', 'Fabbri',
  'Bianco', 'Marini', 'Grasso', 'Valentini', 'Messina', 'Sala', 'De Angelis', 'Gatti', 'Pellegrini', 'Palumbo', 'Sanna',
  'Farina', 'Rizzi', 'Monti', 'Cattaneo', 'Morelli', 'Amato', 'Silvestri', 'Mazza', 'Testa', 'Grassi', 'Carbone', 'Giuliani',
];
const COMPANIES = [
  'Hotel Villa Serena', 'Atelier Sposa Bianca', 'Agenzia Moda Lumière', 'Studio Legale Conti', 'Palestra Energia',
  'Foto Studio Riflessi', 'Boutique Aurelia', 'Teatro Comunale',
];
const MONTHS = ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'];
const POST_TITLES = [
  'Prima e dopo: balayage miele', 'Il nostro team ti aspetta', 'Capelli ricci in inverno: 3 consigli', 'Nuovo trattamento ristrutturante',
  'Le tendenze colore della stagione', 'Dietro le quinte in salone', 'Come far durare il colore più a lungo', 'Tagli corti: le idee del mese',
  'Piega mossa in 5 passaggi', 'Grazie per le vostre recensioni', 'I prodotti che amiamo', 'La promo del mese', 'Una giornata con Chiara',
];

/**
 * Who the customers are. The cadence is each customer's personal gap between visits (drawn once), so a
 * lapsed customer can later be recognised as "past their own usual gap"; `rebooks` is the chance they
 * book the next visit before leaving (the hair-salon benchmark is 52%, Kitomba).
 */
const PROFILES = [
  { weight: 35, female: true, cadence: [35, 56], rebooks: 0.4, services: [[TAGLIO_DONNA, 50], [COLORE, 25], [PIEGA, 15], [TRATTAMENTO, 10]] },
  { weight: 20, female: true, cadence: [28, 42], rebooks: 0.45, services: [[COLORE, 70], [TAGLIO_DONNA, 20], [BALAYAGE, 10]] },
  // The weekly blow-dry ("la piega settimanale"): frequent, a fixed slot, almost always rebooked.
  { weight: 8, female: true, cadence: [7, 14], rebooks: 0.75, services: [[PIEGA, 85], [TRATTAMENTO, 15]] },
  { weight: 27, female: false, cadence: [21, 35], rebooks: 0.35, services: [[TAGLIO_UOMO, 100]] },
  { weight: 10, female: true, cadence: [60, 110], rebooks: 0.1, services: [[BALAYAGE, 40], [TAGLIO_DONNA, 40], [COLORE, 20]] },
] as const;

const plain = (s: string) => s.normalize('NFD').replace(/[^a-zA-Z]/g, '').toLowerCase();

export function generateDemoData(seed: number, today: string, options: DemoOptions = {}): DemoData {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`today must be a local date YYYY-MM-DD, got ${today}`);
  const rnd = createRandom(seed);
  const todayDay = dayNumber(today);
  const todayStart = todayDay * DAY;
  const reference = todayStart + REFERENCE_MINUTE;
  const firstDay = todayDay - HISTORY_DAYS;
  const lastDay = todayDay + BOOKED_AHEAD_DAYS;
  const horizon = (todayDay + FUTURE_DAYS + 1) * DAY; // the end of the fully booked window
  const atDay = (offset: number, minuteOfDay: number) => (todayDay + offset) * DAY + minuteOfDay;

  const staffCount = options.staff ?? 4;
  const staff: DemoStaff[] = Array.from({ length: staffCount }, (_, i) => ({
    name: STAFF_NAMES[i] ?? `${FEMALE[(i * 7) % FEMALE.length]} ${SURNAMES[(i * 11) % SURNAMES.length]}`,
  }));
  const openingHours = OPEN_WEEKDAYS.map((weekday) => ({ weekday, opens: hhmm(OPENS), closes: hhmm(CLOSES) }));

  // People ------------------------------------------------------------------------------------------
  const usedEmails = new Set<string>();
  const person = (female: boolean) => {
    const first = rnd.pick(female ? FEMALE : MALE);
    const last = rnd.pick(SURNAMES);
    let local = `${plain(first)}.${plain(last)}`;
    for (let n = 2; usedEmails.has(local); n++) local = `${plain(first)}.${plain(last)}${n}`;
    usedEmails.add(local);
    // Reserved example domains and the +39 399 prefix (not handed out to Italian mobiles, as far as we
    // know): nothing the demo "sends" can reach a real person.
    const email = `${local}@${rnd.pick(['example.com', 'example.net', 'example.org'])}`;
    const phone = `+39 399 ${rnd.int(100, 999)} ${rnd.int(1000, 9999)}`;
    return { name: `${first} ${last}`, email, phone };
  };

  interface Profile {
    cadence: number;
    rebooks: number;
    noShow: number;
    services: ReadonlyArray<readonly [number, number]>;
    staff: number;
    loyal: boolean;
    time: 'morning' | 'afternoon' | 'any';
    startDay: number;
    stopDay: number;
    isNew: boolean;
  }
  const customerCount = options.customers ?? 300;
  const customers: DemoCustomer[] = [];
  const profiles: Profile[] = [];
  for (let i = 0; i < customerCount; i++) {
    const kind = rnd.weighted(PROFILES.map((p) => [p, p.weight] as const));
    const who = person(kind.female);
    const cadence = rnd.int(kind.cadence[0], kind.cadence[1]);
    const isNew = rnd.chance(0.12);
    const churned = !isNew && rnd.chance(0.12);
    const hasEmail = rnd.chance(0.9);
    const hasPhone = rnd.chance(0.95) || !hasEmail;
    customers.push({
      name: who.name,
      email: hasEmail ? who.email : null,
      phone: hasPhone ? who.phone : null,
      consentMarketing: rnd.chance(0.6),
      consentMessages: rnd.chance(0.88),
      vip: rnd.chance(0.04),
      createdAt: format(atDay(-rnd.int(150, 900), rnd.int(OPENS, CLOSES))), // new customers: replaced below
    });
    profiles.push({
      cadence,
      rebooks: kind.rebooks,
      // Most people come; a few are unreliable. Overall about 8% of kept-or-missed visits are missed.
      noShow: rnd.chance(0.12) ? 0.3 : 0.05,
      services: kind.services,
      staff: kind.female ? rnd.int(0, staffCount - 1) : Math.min(MEN_STYLIST, staffCount - 1),
      loyal: rnd.chance(0.75),
      time: rnd.weighted([['morning', 4], ['afternoon', 4], ['any', 2]] as const),
      startDay: isNew ? rnd.int(-110, -2) : -HISTORY_DAYS + rnd.int(0, cadence - 1),
      // Churned customers stop coming well before today, so they end up past their usual gap.
      stopDay: churned ? rnd.int(-90, -35) : BOOKED_AHEAD_DAYS,
      isNew,
    });
  }

  // Appointments: wanted visits, placed into free slots ------------------------------------------------
  const wanted: Array<{ customer: number; day: number; service: number }> = [];
  profiles.forEach((p, customer) => {
    for (let day = p.startDay; day <= p.stopDay; day += Math.max(1, Math.round(p.cadence * rnd.between(0.85, 1.15)))) {
      wanted.push({ customer, day: todayDay + day, service: rnd.weighted(p.services) });
    }
  });

  const busy = new Map<string, Array<[number, number]>>(); // `${staff}:${day}` → [start, end) minutes of the day
  const customerDays = new Set<string>();
  const isFree = (s: number, day: number, start: number, end: number) =>
    !(busy.get(`${s}:${day}`) ?? []).some(([a, b]) => start < b && a < end);
  const candidateDays = (day: number) =>
    [day, day + 1, day - 1, day + 2, day - 2, day + 3].filter((d) => d >= firstDay && d <= lastDay && isOpen(d));
  const candidateStarts = (duration: number, time: Profile['time']) => {
    const all: number[] = [];
    for (let m = OPENS; m + duration <= CLOSES; m += SLOT) all.push(m);
    const preferred = all.filter((m) => time === 'any' || (time === 'morning' ? m < 13 * 60 : m >= 13 * 60));
    const others = all.filter((m) => !preferred.includes(m));
    const rotate = (xs: number[]) => {
      const k = xs.length ? rnd.int(0, xs.length - 1) : 0;
      return [...xs.slice(k), ...xs.slice(0, k)];
    };
    return [...rotate(preferred), ...rotate(others)];
  };

  interface Placed {
    customer: number;
    service: number;
    staff: number;
    start: number;
    end: number;
  }
  const placed: Placed[] = [];
  for (const visit of rnd.shuffle(wanted)) {
    const p = profiles[visit.customer]!;
    const duration = SERVICES[visit.service]!.durationMinutes;
    const staffOrder = p.loyal ? [p.staff, ...rnd.shuffle(staff.map((_, i) => i).filter((i) => i !== p.staff))] : rnd.shuffle(staff.map((_, i) => i));
    search: for (const day of candidateDays(visit.day)) {
      if (customerDays.has(`${visit.customer}:${day}`)) continue;
      for (const start of candidateStarts(duration, p.time)) {
        for (const s of staffOrder) {
          if (!isFree(s, day, start, start + duration)) continue;
          const key = `${s}:${day}`;
          busy.set(key, [...(busy.get(key) ?? []), [start, start + duration]]);
          customerDays.add(`${visit.customer}:${day}`);
          placed.push({ customer: visit.customer, service: visit.service, staff: s, start: day * DAY + start, end: day * DAY + start + duration });
          break search;
        }
      }
    }
  }

  // Booking times and outcomes, customer by customer in time order -------------------------------------
  const byCustomer = new Map<number, Placed[]>();
  for (const a of placed) byCustomer.set(a.customer, [...(byCustomer.get(a.customer) ?? []), a]);
  const appointments: DemoAppointment[] = [];
  for (const [customer, visits] of [...byCustomer.entries()].sort((x, y) => x[0] - y[0])) {
    const p = profiles[customer]!;
    let previous: DemoAppointment | null = null;
    let previousEnd = 0;
    for (const v of visits.sort((x, y) => x.start - y.start)) {
      // Rebookers book the next visit at checkout; the others a few days ahead.
      const rebooked = previous?.status === 'completed' && rnd.chance(p.rebooks);
      const startDay = Math.floor(v.start / DAY);
      const created = rebooked
        ? previousEnd + rnd.int(0, 15)
        : daytime(rnd, startDay - rnd.weighted([[rnd.int(1, 2), 35], [rnd.int(3, 7), 40], [rnd.int(8, 21), 25]] as const));
      if (created > reference || (v.start >= horizon && !rebooked)) continue; // not booked yet
      let status: AppointmentStatus;
      let cancelled: number | null = null;
      if (v.start < todayStart) {
        if (rnd.chance(0.09)) {
          status = 'cancelled';
          cancelled = Math.min(Math.max(created + 30, daytime(rnd, startDay - rnd.int(0, 2))), v.start - 60);
        } else status = rnd.chance(p.noShow) ? 'no_show' : 'completed';
      } else {
        const cancelAt = daytime(rnd, todayDay - rnd.int(1, 3));
        if (rnd.chance(0.06) && cancelAt > created + 30) {
          status = 'cancelled';
          cancelled = cancelAt;
        } else status = v.start < todayStart + 2 * DAY && rnd.chance(0.6) ? 'confirmed' : 'booked';
      }
      // Reminders go out 24 h before; those due after the reference are the reminder flow's job.
      const remindAt = v.start - DAY;
      const reminded = created <= remindAt && remindAt <= reference && (cancelled === null || cancelled > remindAt);
      const appointment: DemoAppointment = {
        customer,
        service: v.service,
        staff: v.staff,
        startsAt: format(v.start),
        endsAt: format(v.end),
        status,
        priceCents: SERVICES[v.service]!.priceCents,
        createdAt: format(created),
        cancelledAt: cancelled === null ? null : format(cancelled),
        reminderSentAt: reminded ? format(remindAt) : null,
      };
      appointments.push(appointment);
      previous = appointment;
      previousEnd = v.end;
    }
  }
  appointments.sort((a, b) => (a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : a.staff - b.staff));

  // New customers joined when they first booked.
  profiles.forEach((p, i) => {
    if (!p.isNew) return;
    const first = appointments.filter((a) => a.customer === i).map((a) => a.createdAt).sort()[0];
    customers[i]!.createdAt = first ?? format(atDay(p.startDay, rnd.int(OPENS, CLOSES)));
  });

  // A few cancellations in the coming days free slots that the waitlist can fill.
  const upcoming = appointments.filter((a) => a.startsAt >= format(todayStart + DAY) && a.startsAt < format(todayStart + 8 * DAY));
  for (const a of rnd.shuffle(upcoming.filter((x) => x.status !== 'cancelled'))) {
    if (upcoming.filter((x) => x.status === 'cancelled').length >= 3) break;
    const at = daytime(rnd, todayDay - 1);
    if (format(at) <= a.createdAt) continue;
    a.status = 'cancelled';
    a.cancelledAt = format(at);
  }

  return {
    today,
    reference: format(reference),
    services: SERVICES.map((s) => ({ ...s })),
    staff,
    openingHours,
    customers,
    appointments,
    waitlist: makeWaitlist(rnd, appointments, customers.length, todayDay),
    leads: makeLeads(rnd, person, todayDay),
    pipelineStages: [
      { name: 'Nuovo contatto', position: 1, probability: 10 },
      { name: 'Preventivo', position: 2, probability: 30 },
      { name: 'Trattativa', position: 3, probability: 60 },
      { name: 'Vinto', position: 4, probability: 100 },
    ],
    deals: makeDeals(rnd, customers, todayDay, reference),
    posts: makePosts(rnd, todayDay),
    campaigns: makeCampaigns(rnd, customers, todayDay, reference),
    siteDailyStats: makeSiteStats(rnd, todayDay),
  };
}

function makeWaitlist(r: Random, appts: DemoAppointment[], customerTotal: number, day0: number): DemoWaitlistEntry[] {
  const entries: DemoWaitlistEntry[] = [];
  const minutes = (t: LocalTime) => Date.parse(`${t}Z`) / 60_000;
  const dayOf = (t: LocalTime) => Math.floor(minutes(t) / DAY);
  const bookedOn = (customer: number, day: number) => appts.some((a) => a.customer === customer && dayOf(a.startsAt) === day && a.status !== 'cancelled');
  const someone = (day: number) => {
    for (;;) {
      const c = r.int(0, customerTotal - 1);
      if (!bookedOn(c, day)) return c;
    }
  };
  // For each freed slot ahead: one or two people whose window covers it, for a service that fits.
  const freed = appts.filter((a) => a.status === 'cancelled' && minutes(a.startsAt) >= (day0 + 1) * DAY).slice(0, 4);
  for (const slot of freed) {
    const day = dayOf(slot.startsAt);
    const length = minutes(slot.endsAt) - minutes(slot.startsAt);
    const fitting = SERVICES.map((_, i) => i).filter((i) => SERVICES[i]!.durationMinutes <= length);
    for (let n = r.int(1, 2); n > 0; n--) {
      const wide = r.chance(0.5);
      entries.push({
        customer: someone(day),
        service: r.chance(0.6) ? slot.service : r.pick(fitting),
        windowStart: format((wide ? day - 1 : day) * DAY + OPENS),
        windowEnd: format((wide ? day + 1 : day) * DAY + CLOSES),
        status: 'waiting',
        createdAt: format(daytime(r, day0 - r.int(1, 10))),
        notifiedAt: null,
      });
    }
  }
  // Waiting for days with nothing free (yet), and a few past entries: expired, booked, one offered.
  const openAhead = Array.from({ length: FUTURE_DAYS }, (_, i) => day0 + 1 + i).filter(isOpen);
  for (let n = 0; n < 3; n++) {
    const day = r.pick(openAhead);
    entries.push({
      customer: someone(day),
      service: r.pick([TAGLIO_DONNA, PIEGA, COLORE, TAGLIO_UOMO]),
      windowStart: format(day * DAY + OPENS),
      windowEnd: format(day * DAY + 13 * 60),
      status: 'waiting',
      createdAt: format(daytime(r, day0 - r.int(1, 6))),
      notifiedAt: null,
    });
  }
  for (const status of ['expired', 'expired', 'expired', 'booked', 'booked'] as const) {
    const day = day0 - r.int(3, 40);
    const start = day * DAY + OPENS;
    entries.push({
      customer: someone(day),
      service: r.pick([TAGLIO_DONNA, PIEGA, COLORE]),
      windowStart: format(start),
      windowEnd: format(start + 2 * DAY),
      status,
      createdAt: format(daytime(r, day - r.int(2, 10))),
      notifiedAt: status === 'booked' ? format(daytime(r, day - 1)) : null,
    });
  }
  const offeredDay = day0 + r.int(2, 5);
  entries.push({
    customer: someone(offeredDay),
    service: PIEGA,
    windowStart: format(offeredDay * DAY + OPENS),
    windowEnd: format(offeredDay * DAY + CLOSES),
    status: 'offered',
    createdAt: format(daytime(r, day0 - 3)),
    notifiedAt: format(daytime(r, day0 - 1)),
  });
  return entries;
}

function makeLeads(r: Random, person: (female: boolean) => { name: string; email: string; phone: string }, day0: number): DemoLead[] {
  const leads: DemoLead[] = [];
  // About four a week, so the pulse reads "4 new leads this week".
  for (let i = 0; i < 70; i++) {
    const age = r.int(0, HISTORY_DAYS - 1);
    const who = person(r.chance(0.75));
    const source = r.weighted([['instagram', 35], ['google', 25], ['referral', 20], ['walk_in', 15], ['website', 5]] as const);
    // Walk-ins leave a phone number; people writing online leave an email, often both.
    const hasEmail = source !== 'walk_in' && r.chance(0.85);
    const hasPhone = !hasEmail || r.chance(0.5);
    const status =
      age < 7
        ? r.weighted([['new', 7], ['contacted', 3]] as const)
        : age < 30
          ? r.weighted([['new', 1], ['contacted', 4], ['converted', 3], ['lost', 2]] as const)
          : r.weighted([['contacted', 2], ['converted', 3.5], ['lost', 4.5]] as const);
    leads.push({
      name: who.name,
      email: hasEmail ? who.email : null,
      phone: hasPhone ? who.phone : null,
      source,
      status,
      createdAt: format((day0 - age) * DAY + r.int(8 * 60, 22 * 60)),
    });
  }
  return leads.sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
}

function makeDeals(r: Random, customers: DemoCustomer[], day0: number, ref: number): DemoDeal[] {
  const deals: DemoDeal[] = [];
  const title = () => {
    const c = r.int(0, customers.length - 1);
    const company = r.pick(COMPANIES);
    return r.weighted([
      [{ title: `Pacchetto sposa – ${customers[c]!.name}`, customer: c }, 4],
      [{ title: `Abbonamento 10 pieghe – ${customers[c]!.name}`, customer: c }, 2],
      [{ title: `Convenzione aziendale – ${company}`, customer: null }, 2],
      [{ title: `Servizio fotografico – ${company}`, customer: null }, 2],
      [{ title: `Acconciature evento – ${company}`, customer: null }, 1],
    ] as const);
  };
  const at = (daysAgo: number) => (day0 - daysAgo) * DAY + r.int(9 * 60, 19 * 60);
  const add = (status: DemoDeal['status'], stage: number, created: number, activity: number, closed: number | null) => {
    const t = title();
    deals.push({
      title: t.title,
      customer: t.customer,
      stage,
      valueCents: r.int(6, 60) * 5000,
      status,
      createdAt: format(created),
      lastActivityAt: format(Math.min(activity, ref)),
      closedAt: closed === null ? null : format(Math.min(closed, ref)),
    });
  };
  // Won: sitting in "Vinto"; two of them in the last week.
  for (let i = 0; i < 7; i++) {
    const closed = at(i < 2 ? r.int(1, 6) : r.int(10, 110));
    add('won', 3, closed - r.int(7, 40) * DAY, closed, closed);
  }
  // Lost: left where they stopped.
  for (let i = 0; i < 5; i++) {
    const closed = at(r.int(5, 110));
    add('lost', r.int(0, 2), closed - r.int(7, 40) * DAY, closed, closed);
  }
  // Open: most active lately, four stale (no activity for more than 14 days).
  for (let i = 0; i < 12; i++) {
    const activity = at(i < 4 ? r.int(16, 45) : r.int(0, 10));
    add('open', r.int(0, 2), activity - r.int(2, 30) * DAY, activity, null);
  }
  return deals;
}

function makePosts(r: Random, day0: number): DemoPost[] {
  const posts: DemoPost[] = [];
  for (let day = day0 - HISTORY_DAYS + r.int(0, 2); day < day0; day += r.int(2, 4)) {
    const published = day * DAY + r.int(12 * 60, 20 * 60);
    const reach = r.int(350, 2200);
    posts.push({
      channel: r.weighted([['instagram', 6], ['facebook', 3], ['tiktok', 1]] as const),
      title: r.pick(POST_TITLES),
      status: 'published',
      scheduledAt: null,
      publishedAt: format(published),
      reach,
      engagements: Math.round(reach * r.between(0.025, 0.07)),
      createdAt: format(published - r.int(60, 2 * DAY)),
    });
  }
  for (let i = 0; i < 3; i++) {
    posts.push({
      channel: 'instagram',
      title: r.pick(POST_TITLES),
      status: 'scheduled',
      scheduledAt: format((day0 + 1 + i * 2) * DAY + 18 * 60),
      publishedAt: null,
      reach: 0,
      engagements: 0,
      createdAt: format((day0 - r.int(1, 4)) * DAY + 21 * 60),
    });
  }
  for (let i = 0; i < 2; i++) {
    posts.push({
      channel: r.pick(['instagram', 'facebook'] as const),
      title: r.pick(POST_TITLES),
      status: 'draft',
      scheduledAt: null,
      publishedAt: null,
      reach: 0,
      engagements: 0,
      createdAt: format((day0 - r.int(1, 10)) * DAY + 22 * 60),
    });
  }
  return posts;
}

function makeCampaigns(r: Random, customers: DemoCustomer[], day0: number, ref: number): DemoCampaign[] {
  const emailable = customers.filter((c) => c.consentMarketing && c.email).length;
  const textable = customers.filter((c) => c.consentMarketing && c.phone).length;
  const campaigns: DemoCampaign[] = [];
  const names = ['Newsletter di {m}', 'Promo colore di {m}', "Porta un'amica – {m}", 'Le novità di {m}'];
  for (let i = 0; i < 8; i++) {
    const day = day0 - HISTORY_DAYS + 5 + i * 14 + r.int(0, 3);
    const sent = day * DAY + r.int(9 * 60, 11 * 60);
    const channel = i % 4 === 3 ? 'sms' : 'email';
    const recipients = channel === 'email' ? emailable : textable;
    const month = MONTHS[new Date(day * 86_400_000).getUTCMonth()]!;
    campaigns.push({
      name: r.pick(names).replace('{m}', month),
      channel,
      status: 'sent',
      scheduledAt: null,
      sentAt: format(sent),
      recipients,
      // SMS opens are not measurable; clicks and bookings are.
      opens: channel === 'email' ? Math.round(recipients * r.between(0.28, 0.42)) : 0,
      clicks: Math.round(recipients * (channel === 'email' ? r.between(0.025, 0.05) : r.between(0.04, 0.08))),
      conversions: Math.round(recipients * (channel === 'email' ? r.between(0.008, 0.02) : r.between(0.015, 0.03))),
      createdAt: format(sent - r.int(1, 3) * DAY),
    });
  }
  campaigns.push({
    name: 'Auguri e promo di stagione',
    channel: 'email',
    status: 'scheduled',
    scheduledAt: format((day0 + 3) * DAY + 10 * 60),
    sentAt: null,
    recipients: 0,
    opens: 0,
    clicks: 0,
    conversions: 0,
    createdAt: format(ref - 2 * DAY),
  });
  campaigns.push({
    name: 'Ti aspettiamo di nuovo',
    channel: 'sms',
    status: 'draft',
    scheduledAt: null,
    sentAt: null,
    recipients: 0,
    opens: 0,
    clicks: 0,
    conversions: 0,
    createdAt: format(ref - DAY),
  });
  return campaigns;
}

function makeSiteStats(r: Random, day0: number): DemoSiteDay[] {
  // Visits by weekday (Mon…Sun): busier on the days the salon is open, Saturday the most.
  const base = [35, 55, 55, 60, 65, 70, 30];
  const days: DemoSiteDay[] = [];
  for (let day = day0 - HISTORY_DAYS; day < day0; day++) {
    const growth = 1 + (0.15 * (day - (day0 - HISTORY_DAYS))) / HISTORY_DAYS;
    const lastWeekDip = day >= day0 - 7 ? 0.9 : 1;
    const visits = Math.round(base[isoWeekday(day) - 1]! * growth * lastWeekDip * r.between(0.8, 1.2));
    const bookingPageVisits = Math.round(visits * r.between(0.22, 0.32));
    days.push({ day: formatDay(day), visits, bookingPageVisits, conversions: Math.round(bookingPageVisits * r.between(0.1, 0.2)) });
  }
  return days;
}
