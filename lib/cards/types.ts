import { z } from 'zod';
import type { Label } from './layout';

/**
 * The result types agents publish, each with the schema its data must pass, the labels of its fields
 * (used by the default layout when no template fits) and the buttons its cards come with when the
 * agent names none. Client-safe: the renderer reads the labels.
 */

const text = (max = 200) => z.string().trim().min(1).max(max);
const currency = z.string().regex(/^[A-Z]{3}$/, 'api.cards.currency').default('EUR');
const money = z.number().finite().nonnegative();
const date = z.iso.date();
const datetime = z.iso.datetime({ offset: true });
const imageUrl = z.url({ protocol: /^https$/ }).max(2000);
const tone = z.enum(['info', 'success', 'warning', 'danger']);
const series = z.array(z.number().finite()).min(2).max(500);
const metric = z.object({ label: text(120), value: z.union([z.number().finite(), text(60)]), change: z.number().finite().optional(), trend: series.optional() });
const PLANETS = ['web', 'booking', 'content', 'crm', 'sales', 'marketing'] as const;

export const resultSchemas = {
  hotel: z.object({
    name: text(),
    image: imageUrl.optional(),
    city: text(120).optional(),
    address: text(300).optional(),
    stars: z.number().int().min(1).max(5).optional(),
    rating: z.number().min(0).max(10).optional(),
    reviews: z.number().int().nonnegative().optional(),
    pricePerNight: money.optional(),
    currency,
    checkIn: date.optional(),
    checkOut: date.optional(),
    amenities: z.array(text(40)).max(30).optional(),
    url: z.url().max(2000).optional(),
    summary: text(4000).optional(),
  }),
  flight: z.object({
    airline: text(120),
    flightNumber: text(20).optional(),
    from: text(120),
    to: text(120),
    departAt: datetime,
    arriveAt: datetime,
    durationMinutes: z.number().int().positive().optional(),
    stops: z.number().int().min(0).max(5).optional(),
    price: money.optional(),
    currency,
    cabin: text(40).optional(),
    baggage: text(120).optional(),
  }),
  email: z.object({
    to: z.array(z.email()).min(1).max(50),
    cc: z.array(z.email()).max(50).optional(),
    from: z.email().optional(),
    subject: text(300),
    body: text(20_000),
  }),
  stock_quote: z.object({
    symbol: text(20),
    name: text(120).optional(),
    price: z.number().finite(),
    currency,
    change: z.number().finite().optional(),
    changePercent: z.number().finite().optional(),
    history: series.optional(),
    exchange: text(40).optional(),
    asOf: datetime.optional(),
  }),
  job_offer: z.object({
    title: text(),
    company: text(),
    location: text(120).optional(),
    remote: z.boolean().optional(),
    salaryMin: money.optional(),
    salaryMax: money.optional(),
    currency,
    employmentType: text(60).optional(),
    skills: z.array(text(40)).max(30).optional(),
    summary: text(4000).optional(),
    url: z.url().max(2000).optional(),
    postedAt: date.optional(),
  }),
  recipe: z.object({
    title: text(),
    image: imageUrl.optional(),
    servings: z.number().int().positive().max(100).optional(),
    prepMinutes: z.number().int().nonnegative().optional(),
    cookMinutes: z.number().int().nonnegative().optional(),
    ingredients: z.array(text(300)).min(1).max(60),
    steps: z.array(text(2000)).min(1).max(60),
    tags: z.array(text(40)).max(20).optional(),
  }),
  briefing: z.object({
    title: text(),
    date: date.optional(),
    summary: text(4000).optional(),
    metrics: z.array(metric).max(12).optional(),
    sections: z
      .array(
        z.object({
          heading: text(120),
          items: z.array(z.object({ text: text(2000), detail: text(2000).optional(), tone: tone.optional() })).min(1).max(30),
        }),
      )
      .max(10)
      .default([]),
  }),
  booking: z.object({
    customer: text(120),
    service: text(120),
    startsAt: datetime,
    durationMinutes: z.number().int().positive().optional(),
    staff: text(120).optional(),
    status: z.enum(['confirmed', 'pending', 'cancelled', 'no_show', 'completed']),
    price: money.optional(),
    currency,
    notes: text(2000).optional(),
  }),
  customer: z.object({
    name: text(120),
    email: z.email().optional(),
    phone: text(40).optional(),
    since: date.optional(),
    visits: z.number().int().nonnegative().optional(),
    lastVisitAt: date.optional(),
    lifetimeValue: money.optional(),
    currency,
    tags: z.array(text(40)).max(20).optional(),
    notes: text(2000).optional(),
  }),
  deal: z.object({
    title: text(),
    company: text(120).optional(),
    contact: text(120).optional(),
    value: money,
    currency,
    stage: text(60),
    probability: z.number().min(0).max(100).optional(),
    expectedCloseAt: date.optional(),
    nextStep: text(500).optional(),
  }),
  insight: z.object({
    title: text(),
    body: text(4000),
    severity: z.enum(['info', 'watch', 'act']),
    planet: z.enum(PLANETS).optional(),
    metric: metric.optional(),
    evidence: text(1000).optional(),
  }),
  approval: z.object({
    /** What the agent wants to do, as a sentence. */
    title: text(300),
    /** Why: one line of evidence. */
    why: text(1000),
    /** The exact message it will send, when it sends one. */
    message: text(4000).optional(),
    recipient: text(320).optional(),
    channel: text(40).optional(),
    /** Until when the OK counts (default: a day after publishing). */
    expiresAt: datetime.optional(),
  }),
} as const;

export type ResultType = keyof typeof resultSchemas;
export const RESULT_TYPES = Object.keys(resultSchemas) as ResultType[];
export const isResultType = (type: string): type is ResultType => Object.hasOwn(resultSchemas, type);

/** How each type is called on a card with no title of its own. */
export const typeLabels: Record<ResultType, Label> = {
  hotel: { en: 'Hotel', it: 'Hotel' },
  flight: { en: 'Flight', it: 'Volo' },
  email: { en: 'Email', it: 'Email' },
  stock_quote: { en: 'Stock quote', it: 'Quotazione' },
  job_offer: { en: 'Job offer', it: 'Offerta di lavoro' },
  recipe: { en: 'Recipe', it: 'Ricetta' },
  briefing: { en: 'Briefing', it: 'Briefing' },
  booking: { en: 'Booking', it: 'Prenotazione' },
  customer: { en: 'Customer', it: 'Cliente' },
  deal: { en: 'Deal', it: 'Trattativa' },
  insight: { en: 'Insight', it: 'Osservazione' },
  approval: { en: 'Approval', it: 'Approvazione' },
};

/** Field labels for the default layout (fields not named here are humanized from their key). */
export const fieldLabels: Record<string, Label> = {
  address: { en: 'Address', it: 'Indirizzo' },
  airline: { en: 'Airline', it: 'Compagnia' },
  amenities: { en: 'Amenities', it: 'Servizi' },
  arriveAt: { en: 'Arrives', it: 'Arrivo' },
  body: { en: 'Message', it: 'Messaggio' },
  checkIn: { en: 'Check-in', it: 'Arrivo' },
  checkOut: { en: 'Check-out', it: 'Partenza' },
  city: { en: 'City', it: 'Città' },
  company: { en: 'Company', it: 'Azienda' },
  customer: { en: 'Customer', it: 'Cliente' },
  date: { en: 'Date', it: 'Data' },
  departAt: { en: 'Departs', it: 'Partenza' },
  durationMinutes: { en: 'Duration', it: 'Durata' },
  email: { en: 'Email', it: 'Email' },
  evidence: { en: 'Evidence', it: 'Dati' },
  from: { en: 'From', it: 'Da' },
  ingredients: { en: 'Ingredients', it: 'Ingredienti' },
  location: { en: 'Location', it: 'Sede' },
  message: { en: 'Exact message', it: 'Messaggio esatto' },
  notes: { en: 'Notes', it: 'Note' },
  phone: { en: 'Phone', it: 'Telefono' },
  price: { en: 'Price', it: 'Prezzo' },
  pricePerNight: { en: 'Per night', it: 'A notte' },
  rating: { en: 'Rating', it: 'Valutazione' },
  recipient: { en: 'To', it: 'A' },
  sections: { en: 'Sections', it: 'Sezioni' },
  severity: { en: 'Severity', it: 'Gravità' },
  stage: { en: 'Stage', it: 'Fase' },
  startsAt: { en: 'When', it: 'Quando' },
  status: { en: 'Status', it: 'Stato' },
  steps: { en: 'Method', it: 'Procedimento' },
  summary: { en: 'Summary', it: 'Sintesi' },
  to: { en: 'To', it: 'A' },
  value: { en: 'Value', it: 'Valore' },
  why: { en: 'Why', it: 'Perché' },
};
