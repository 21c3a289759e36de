import type { SectorId } from '@/lib/workspaces';
import { SOURCES, type Source } from './sources';

/**
 * One benchmark figure. Either it cites where it comes from (and which number of that source it took),
 * or it is an estimate and says how it was reached. Nothing in between: a figure without either is a
 * type error.
 */
export type Figure =
  | { value: number; source: Source; detail: string }
  | { value: number; estimate: true; reasoning: string };

/** What every sector pack holds. Rates are fractions (0.07 = 7%). */
export const BENCHMARK_KEYS = [
  'noShowRate', // no-shows / (completed + no-shows)
  'rebookingRate', // visits after which the next one was booked within 24 h (Kitomba's definition)
  'visitCadenceDays', // usual days between a returning client's visits
  'leadConversionRate', // leads that became clients
  'averageTicketEur', // average spend per visit or order, VAT included
  'emailOpenRate', // unique opens / recipients
  'emailClickRate', // unique clicks / recipients
  'socialEngagementRate', // engagements / reach of published posts
  'bookingPageConversionRate', // bookings / booking-page visits
  'dealWinRate', // won / (won + lost) deals
] as const;
export type BenchmarkKey = (typeof BENCHMARK_KEYS)[number];

export type SectorBenchmark = Record<BenchmarkKey, Figure>;

const cited = (value: number, source: Source, detail: string): Figure => ({ value, source, detail });
const estimate = (value: number, reasoning: string): Figure => ({ value, estimate: true, reasoning });

// Figures shared by several sectors ------------------------------------------------------------------

const noShowHealthcare = cited(
  0.23,
  SOURCES.dantas2018,
  'Average no-show rate across 105 studies and all medical specialties, worldwide (regional averages range from 13.2% in Oceania to 43.0% in Africa).',
);
const noShowSalon = estimate(
  0.07,
  'No published salon-wide average was found. Set well below the healthcare average of about 23% (Dantas 2018) because salon clients pick their own slot and usually get reminders, which Fresha claims cut no-shows by up to 30%.',
);
const noShowClasses = estimate(
  0.1,
  'Classes and sessions are mostly prepaid within a membership or package, so skipping one costs the client little; set between the salon estimate (7%) and the healthcare average (23%, Dantas 2018).',
);
const noShowLessons = estimate(
  0.05,
  'Lessons are paid by term or package and a missed lesson is usually rescheduled, so true no-shows are rare.',
);
const noShowWalkIn = estimate(
  0.05,
  'Most clients walk in; the few bookings are pre-orders or pickups, usually prepaid, so they are rarely abandoned.',
);

const rebookingHair = cited(
  0.52,
  SOURCES.kitombaRebooking2021,
  'Average rebooking rate of Australian hair salons in Q4 2020 (New Zealand: 57%; Kitomba recommends aiming for 75% or more).',
);
const rebookingBeauty = cited(0.43, SOURCES.kitombaRebooking2021, 'Average rebooking rate of the Australian beauty industry in Q4 2020.');
const rebookingWalkIn = estimate(0.05, 'Clients do not book their next visit in advance; they come back when they need something.');

const socialEngagement = estimate(
  0.04,
  'Engagements divided by reach (not by followers). No source in RESEARCH.md uses this definition; small local accounts with an engaged following commonly see a few percent, so 4% marks a healthy account.',
);
const bookingPageAppointments = estimate(
  0.15,
  'Share of booking-page visits that end in a booking. No source in RESEARCH.md; many visitors only check prices or availability, so roughly one in seven booking is taken as typical for appointment businesses.',
);
const bookingPageLow = estimate(
  0.05,
  'Online booking is a side channel here (most clients walk in, call or order in person), so few booking-page visits end in a booking.',
);
const dealWinRate = estimate(
  0.3,
  'Share of closed deals (packages, events, corporate agreements) that were won. No source in RESEARCH.md; a small business usually quotes for people who already asked for it, so about one in three is taken as typical.',
);

const email = {
  beauty: [
    cited(0.1665, SOURCES.mailchimp2019, 'Average open rate, "Beauty and Personal Care".'),
    cited(0.0192, SOURCES.mailchimp2019, 'Average click rate, "Beauty and Personal Care".'),
  ],
  fitness: [
    cited(0.2006, SOURCES.mailchimp2018, 'Average open rate, "Health and Fitness".'),
    cited(0.0218, SOURCES.mailchimp2018, 'Average click rate, "Health and Fitness".'),
  ],
  arts: [
    cited(0.2627, SOURCES.mailchimp2019, 'Average open rate, "Arts and Artists".'),
    cited(0.0295, SOURCES.mailchimp2019, 'Average click rate, "Arts and Artists".'),
  ],
  education: [
    cited(0.218, SOURCES.mailchimp2018, 'Average open rate, "Education and Training".'),
    cited(0.0248, SOURCES.mailchimp2018, 'Average click rate, "Education and Training".'),
  ],
  homeAndGarden: [
    cited(0.2221, SOURCES.mailchimp2018, 'Average open rate, "Home and Garden".'),
    cited(0.0302, SOURCES.mailchimp2018, 'Average click rate, "Home and Garden".'),
  ],
  consulting: [
    cited(0.2013, SOURCES.mailchimp2019, 'Average open rate, "Consulting".'),
    cited(0.0249, SOURCES.mailchimp2019, 'Average click rate, "Consulting".'),
  ],
  ecommerce: [
    cited(0.1568, SOURCES.mailchimp2019, 'Average open rate, "E-Commerce" (the closest row we could verify for shops).'),
    cited(0.0201, SOURCES.mailchimp2019, 'Average click rate, "E-Commerce" (the closest row we could verify for shops).'),
  ],
  // For sectors whose own Mailchimp row we could not verify, the all-industries average stands in.
  all: [
    cited(0.2271, SOURCES.mailchimp2019, 'Average open rate of all accounts without an industry label, used because this sector has no verified row of its own.'),
    cited(0.0291, SOURCES.mailchimp2019, 'Average click rate of all accounts without an industry label, used because this sector has no verified row of its own.'),
  ],
} satisfies Record<string, [Figure, Figure]>;

const emailFigures = (rates: [Figure, Figure]) => ({ emailOpenRate: rates[0], emailClickRate: rates[1] });

const leadConversion = (value: number, why: string) =>
  estimate(value, `No source in RESEARCH.md for lead conversion in this sector. ${why}`);
const ticket = (value: number, why: string) => estimate(value, `Typical Italian price level, VAT included: ${why}`);
const cadence = (value: number, why: string) => estimate(value, `No measured revisit period for this sector in RESEARCH.md. ${why}`);

// Families: the figures sectors of one kind share; each sector then overrides what differs. -------------

const beautyFamily = {
  noShowRate: noShowSalon,
  rebookingRate: rebookingBeauty,
  leadConversionRate: leadConversion(0.3, 'About three in ten enquiries from social media, Google and referrals become a first booking for a personal-care business.'),
  ...emailFigures(email.beauty),
  socialEngagementRate: socialEngagement,
  bookingPageConversionRate: bookingPageAppointments,
  dealWinRate,
} satisfies Partial<SectorBenchmark>;

const fitnessFamily = {
  noShowRate: noShowClasses,
  rebookingRate: estimate(0.6, 'Members book their next class or session as a habit, often on a fixed weekly slot; no published average was found.'),
  leadConversionRate: leadConversion(0.25, 'About a quarter of trial or information requests turn into a membership or package.'),
  ...emailFigures(email.fitness),
  socialEngagementRate: socialEngagement,
  bookingPageConversionRate: bookingPageAppointments,
  dealWinRate,
} satisfies Partial<SectorBenchmark>;

const healthFamily = {
  noShowRate: noShowHealthcare,
  leadConversionRate: leadConversion(0.4, 'People who contact a practice usually already need care, so a larger share books than for discretionary services.'),
  ...emailFigures(email.all),
  socialEngagementRate: socialEngagement,
  bookingPageConversionRate: bookingPageAppointments,
  dealWinRate,
} satisfies Partial<SectorBenchmark>;

const lessonsFamily = {
  noShowRate: noShowLessons,
  rebookingRate: estimate(0.8, 'Students enrol for a term or a package, so the next lesson is almost always booked before they leave.'),
  visitCadenceDays: cadence(7, 'Weekly lessons are the norm.'),
  leadConversionRate: leadConversion(0.3, 'About three in ten enquiries or trial lessons become an enrolment.'),
  socialEngagementRate: socialEngagement,
  bookingPageConversionRate: bookingPageAppointments,
  dealWinRate,
} satisfies Partial<SectorBenchmark>;

const walkInFamily = {
  noShowRate: noShowWalkIn,
  rebookingRate: rebookingWalkIn,
  leadConversionRate: leadConversion(0.15, 'Most leads are enquiries about products or catering orders; few turn into an order.'),
  socialEngagementRate: socialEngagement,
  bookingPageConversionRate: bookingPageLow,
  dealWinRate,
} satisfies Partial<SectorBenchmark>;

const servicesFamily = {
  leadConversionRate: leadConversion(0.2, 'Enquiries usually ask for a quote, and about one in five becomes a client.'),
  socialEngagementRate: socialEngagement,
  bookingPageConversionRate: bookingPageAppointments,
  dealWinRate,
} satisfies Partial<SectorBenchmark>;

// The packs ------------------------------------------------------------------------------------------

export const SECTOR_BENCHMARKS: Record<SectorId, SectorBenchmark> = {
  hair_salon: {
    ...beautyFamily,
    rebookingRate: rebookingHair,
    visitCadenceDays: cited(50, SOURCES.kitombaRevisit2023, 'Average revisit period of New Zealand hair clients in Q1 2023: 7.1 weeks.'),
    averageTicketEur: ticket(45, 'a women’s cut and blow-dry costs about €35–60, a men’s cut about €20–25, colour more.'),
  },
  barber: {
    ...beautyFamily,
    rebookingRate: cited(0.52, SOURCES.kitombaRebooking2021, 'Hair-salon figure (Australia, Q4 2020) applied to barbers, who were not reported separately.'),
    visitCadenceDays: cadence(28, 'Short men’s cuts and beard trims need redoing every three to five weeks.'),
    averageTicketEur: ticket(22, 'a men’s cut costs about €18–25, with a beard trim a few euros more.'),
    leadConversionRate: leadConversion(0.35, 'Barbers are chosen by proximity and walk-ins; an enquiry is usually close to a visit.'),
  },
  beauty_salon: {
    ...beautyFamily,
    visitCadenceDays: cited(41, SOURCES.kitombaRevisit2023, 'Average revisit period of New Zealand beauty clients in Q1 2023: 41 days.'),
    averageTicketEur: ticket(50, 'facials, waxing and manicures cost about €25–80 per visit.'),
  },
  nail_salon: {
    ...beautyFamily,
    visitCadenceDays: cadence(21, 'Gel and acrylic nails need an infill every two to three weeks.'),
    averageTicketEur: ticket(35, 'a gel manicure or infill costs about €25–45.'),
  },
  spa: {
    ...beautyFamily,
    rebookingRate: estimate(0.3, 'Spa visits are often occasional treats or gifts and are rebooked less than salon services (Kitomba’s beauty figure is 43%).'),
    visitCadenceDays: cadence(60, 'Regular spa clients come back about every two months; many come only occasionally.'),
    averageTicketEur: ticket(80, 'a spa entry with one treatment costs about €60–120.'),
  },
  massage: {
    ...beautyFamily,
    ...emailFigures(email.fitness),
    rebookingRate: estimate(0.4, 'Close to Kitomba’s beauty-industry figure (43%): regular massage clients book the next session, occasional ones do not.'),
    visitCadenceDays: cadence(30, 'MassageBook starts its win-back messages 33 days after a visit, which suggests regular clients come about monthly.'),
    averageTicketEur: ticket(55, 'a 50–60 minute massage costs about €45–70.'),
  },
  tattoo: {
    ...beautyFamily,
    ...emailFigures(email.arts),
    noShowRate: estimate(0.05, 'Tattoo sessions are usually secured with a deposit, so clients rarely fail to show.'),
    rebookingRate: estimate(0.35, 'Multi-session pieces are booked session by session; single tattoos are not rebooked.'),
    visitCadenceDays: cadence(120, 'Returning clients come back for a new piece or the next session months later.'),
    averageTicketEur: ticket(150, 'a small-to-medium tattoo costs about €100–250.'),
    leadConversionRate: leadConversion(0.25, 'Many enquiries are price checks for designs the client has not decided on.'),
  },
  yoga_studio: {
    ...fitnessFamily,
    visitCadenceDays: cadence(7, 'Regular students attend one or two classes a week.'),
    averageTicketEur: ticket(15, 'a drop-in class costs about €12–18; packages bring the per-class price lower.'),
  },
  pilates_studio: {
    ...fitnessFamily,
    visitCadenceDays: cadence(7, 'Regular clients attend one or two sessions a week.'),
    averageTicketEur: ticket(25, 'a reformer class costs about €20–35; a private session more.'),
  },
  fitness_gym: {
    ...fitnessFamily,
    visitCadenceDays: cadence(4, 'Active members train about twice a week.'),
    averageTicketEur: ticket(10, 'a monthly membership of about €40–60 spread over eight visits.'),
  },
  personal_training: {
    ...fitnessFamily,
    rebookingRate: estimate(0.75, 'Clients buy packages of sessions and fix the next one at the end of each.'),
    visitCadenceDays: cadence(7, 'Most clients train with their trainer once or twice a week.'),
    averageTicketEur: ticket(45, 'a one-to-one session costs about €35–60.'),
  },
  dance_studio: {
    ...fitnessFamily,
    ...emailFigures(email.arts),
    noShowRate: noShowLessons,
    visitCadenceDays: cadence(7, 'Dance courses meet once a week.'),
    averageTicketEur: ticket(12, 'a monthly course fee of about €40–60 spread over four lessons.'),
  },
  martial_arts: {
    ...fitnessFamily,
    noShowRate: noShowLessons,
    visitCadenceDays: cadence(4, 'Students usually train twice a week.'),
    averageTicketEur: ticket(12, 'a monthly fee of about €50–70 spread over eight sessions.'),
  },
  physiotherapy: {
    ...healthFamily,
    ...emailFigures(email.fitness),
    rebookingRate: estimate(0.7, 'Treatment comes in courses of sessions booked one after another.'),
    visitCadenceDays: cadence(7, 'Sessions within a course of treatment are about a week apart.'),
    averageTicketEur: ticket(50, 'a physiotherapy session costs about €40–70.'),
  },
  dental: {
    ...healthFamily,
    rebookingRate: estimate(0.5, 'Check-ups and hygiene recalls are often fixed at the end of a visit; half is taken as typical.'),
    visitCadenceDays: cadence(180, 'The common recall interval for check-ups and cleaning is six months.'),
    averageTicketEur: ticket(120, 'a cleaning costs about €60–100, treatments much more.'),
  },
  medical_clinic: {
    ...healthFamily,
    rebookingRate: estimate(0.4, 'Follow-up visits are booked for some patients only, so fewer than half of visits end with the next one booked.'),
    visitCadenceDays: cadence(90, 'Patients with a follow-up come back after a few months.'),
    averageTicketEur: ticket(100, 'a private specialist visit costs about €80–150.'),
  },
  psychology: {
    ...healthFamily,
    rebookingRate: estimate(0.85, 'Therapy is a series of sessions, each booked at the end of the previous one.'),
    visitCadenceDays: cadence(7, 'Sessions are usually weekly or every other week.'),
    averageTicketEur: ticket(70, 'a session costs about €50–90.'),
  },
  nutritionist: {
    ...healthFamily,
    ...emailFigures(email.fitness),
    rebookingRate: estimate(0.6, 'Plans come with follow-up checks that are usually booked at the end of the visit.'),
    visitCadenceDays: cadence(30, 'Follow-up checks are about monthly.'),
    averageTicketEur: ticket(80, 'a first visit costs about €80–120, follow-ups about €50–60.'),
  },
  veterinary: {
    ...healthFamily,
    noShowRate: estimate(0.1, 'No veterinary figure in RESEARCH.md; owners are less likely to skip care for an animal than the healthcare average (23%, Dantas 2018) suggests for patients.'),
    rebookingRate: estimate(0.4, 'Vaccination and check-up recalls are booked for part of the patients.'),
    visitCadenceDays: cadence(180, 'Vaccinations and check-ups are yearly or twice a year.'),
    averageTicketEur: ticket(70, 'a visit costs about €40–60, with vaccines or tests more.'),
  },
  pet_grooming: {
    ...beautyFamily,
    ...emailFigures(email.all),
    noShowRate: estimate(0.08, 'Like salon appointments (7% estimate), slightly higher because the trip depends on the pet as well as the owner.'),
    rebookingRate: estimate(0.5, 'Groomers commonly fix the next appointment at pick-up, as MoeGo’s default 4-week cadence invites.'),
    visitCadenceDays: cited(28, SOURCES.moego, 'A vendor default (4 weeks), not a measured average.'),
    averageTicketEur: ticket(50, 'a full groom costs about €35–70 depending on the dog’s size.'),
  },
  photography: {
    ...servicesFamily,
    ...emailFigures(email.arts),
    noShowRate: estimate(0.05, 'Shoots are planned in advance and usually secured with a deposit.'),
    rebookingRate: estimate(0.1, 'Most shoots are one-off events (weddings, portraits, products).'),
    visitCadenceDays: cadence(365, 'Returning clients come back for the next occasion, about once a year.'),
    averageTicketEur: ticket(250, 'a portrait session costs about €150–400; weddings much more.'),
  },
  music_school: {
    ...lessonsFamily,
    ...emailFigures(email.arts),
    averageTicketEur: ticket(30, 'a 45–60 minute individual lesson costs about €25–40.'),
  },
  language_school: {
    ...lessonsFamily,
    ...emailFigures(email.education),
    averageTicketEur: ticket(25, 'a group lesson costs about €15–25, an individual one about €30–40.'),
  },
  tutoring: {
    ...lessonsFamily,
    ...emailFigures(email.education),
    averageTicketEur: ticket(25, 'an hour of private tutoring costs about €15–30.'),
  },
  restaurant: {
    ...walkInFamily,
    ...emailFigures(email.all),
    noShowRate: estimate(0.1, 'Reservations are free to make and to miss; no restaurant figure in RESEARCH.md, so a tenth of bookings, between the salon estimate and the healthcare average.'),
    rebookingRate: estimate(0.1, 'Guests rarely book their next meal on the way out; regulars book again later.'),
    visitCadenceDays: cadence(45, 'Regular guests of a neighbourhood restaurant come back about every six weeks.'),
    averageTicketEur: ticket(35, 'a dinner costs about €25–50 per person.'),
    leadConversionRate: leadConversion(0.25, 'Leads are mostly event and group enquiries; about a quarter book.'),
    bookingPageConversionRate: estimate(0.2, 'People who open a restaurant’s booking page usually already want a table.'),
  },
  cafe: {
    ...walkInFamily,
    ...emailFigures(email.all),
    visitCadenceDays: cadence(3, 'Regulars come for coffee or breakfast a few times a week.'),
    averageTicketEur: ticket(5, 'a coffee and pastry costs about €2.50–6.'),
  },
  bakery: {
    ...walkInFamily,
    ...emailFigures(email.all),
    visitCadenceDays: cadence(4, 'Regulars buy bread a couple of times a week.'),
    averageTicketEur: ticket(10, 'a daily purchase costs about €5–15, cakes for occasions more.'),
  },
  retail_shop: {
    ...walkInFamily,
    ...emailFigures(email.ecommerce),
    visitCadenceDays: cadence(30, 'Returning customers of a local shop come back about monthly.'),
    averageTicketEur: ticket(40, 'a typical purchase in an independent shop costs about €25–60.'),
  },
  florist: {
    ...walkInFamily,
    ...emailFigures(email.homeAndGarden),
    visitCadenceDays: cadence(60, 'Private customers buy for occasions, roughly every two months.'),
    averageTicketEur: ticket(35, 'a bouquet costs about €25–50.'),
  },
  consulting: {
    ...servicesFamily,
    ...emailFigures(email.consulting),
    noShowRate: estimate(0.05, 'Meetings are agreed one-to-one with professional clients, who reschedule rather than miss them.'),
    rebookingRate: estimate(0.5, 'Ongoing engagements schedule the next meeting at the end of the current one.'),
    visitCadenceDays: cadence(30, 'Ongoing clients meet about monthly.'),
    averageTicketEur: ticket(150, 'an hour of consulting for a small business costs about €80–200.'),
    dealWinRate: estimate(0.25, 'Proposals compete with other firms more often than a local shop’s quotes do, so about one in four is won.'),
  },
  real_estate: {
    ...servicesFamily,
    ...emailFigures(email.all),
    noShowRate: estimate(0.1, 'Viewings are free and easy to skip when the buyer finds something else; no figure in RESEARCH.md.'),
    rebookingRate: estimate(0.2, 'A second viewing is booked only for the properties a buyer is serious about.'),
    visitCadenceDays: cadence(14, 'Active buyers view properties every couple of weeks until they buy.'),
    averageTicketEur: ticket(4500, 'the agency fee on a sale is about 3% of a €150,000 property.'),
    leadConversionRate: leadConversion(0.1, 'Most property enquiries are early research; about one in ten leads to a mandate or a purchase through the agency.'),
    dealWinRate: estimate(0.2, 'Many negotiations fail on price, financing or a competing offer.'),
  },
  car_repair: {
    ...servicesFamily,
    ...emailFigures(email.all),
    noShowRate: estimate(0.05, 'Clients book because the car needs work and usually keep the appointment.'),
    rebookingRate: estimate(0.3, 'The next service or tyre change is sometimes fixed at pick-up.'),
    visitCadenceDays: cadence(180, 'Servicing and seasonal tyre changes bring clients back about twice a year.'),
    averageTicketEur: ticket(250, 'a service costs about €150–300, repairs more.'),
  },
  cleaning: {
    ...servicesFamily,
    ...emailFigures(email.homeAndGarden),
    noShowRate: estimate(0.03, 'The cleaner goes to the client on a recurring schedule; visits are rarely missed, rather moved.'),
    rebookingRate: estimate(0.8, 'Most clients have a recurring schedule, so the next visit is always booked.'),
    visitCadenceDays: cadence(14, 'Recurring home and office cleaning is weekly or every other week.'),
    averageTicketEur: ticket(90, 'a home cleaning visit of about four hours costs about €70–110.'),
  },
  other: {
    ...servicesFamily,
    ...emailFigures(email.all),
    noShowRate: estimate(0.1, 'A middle value for an unknown appointment business: above the salon estimate (7%), well below the healthcare average (23%, Dantas 2018).'),
    rebookingRate: estimate(0.3, 'A middle value for an unknown business: some clients rebook, many come back later.'),
    visitCadenceDays: cadence(60, 'A middle value for an unknown business: regular clients about every two months.'),
    averageTicketEur: ticket(50, 'a middle value for a small local service.'),
  },
};
