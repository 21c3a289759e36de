import type { Locale } from '@/lib/i18n';
import type { Planet } from '@/lib/planets';
import type { SectorId } from '@/lib/workspaces';

/** A service the sector usually offers: the owner edits the list before anything is saved. */
export interface StarterService {
  name: Record<Locale, string>;
  durationMinutes: number;
  priceCents: number;
}

export interface SectorStarter {
  /** The planets a starter agent looks after: where this kind of business does its daily work. */
  planets: Planet[];
  services: StarterService[];
}

const s = (en: string, it: string, durationMinutes: number, euros: number): StarterService => ({ name: { en, it }, durationMinutes, priceCents: euros * 100 });

// Which planets start with an agent. The others still exist (the Home shows them, the analysis reads
// whatever data they get); they only have no agent of their own until the owner makes one.
const APPOINTMENTS: Planet[] = ['booking', 'crm', 'marketing'];
const CLASSES: Planet[] = ['booking', 'crm', 'content'];
const SHOP: Planet[] = ['crm', 'content', 'marketing'];
const PROJECTS: Planet[] = ['crm', 'sales', 'web'];

/**
 * What onboarding suggests per sector. Prices are typical Italian list prices in euros, VAT included,
 * rounded: a starting point the owner corrects, never a benchmark (lib/knowledge holds those).
 */
export const SECTOR_STARTERS: Record<SectorId, SectorStarter> = {
  hair_salon: {
    planets: APPOINTMENTS,
    services: [s('Cut and blow-dry', 'Taglio e piega', 45, 35), s('Blow-dry', 'Piega', 30, 20), s('Colour', 'Colore', 90, 55), s('Highlights', 'Colpi di sole', 120, 80)],
  },
  barber: { planets: APPOINTMENTS, services: [s('Haircut', 'Taglio', 30, 20), s('Beard trim', 'Regolazione barba', 20, 12), s('Cut and beard', 'Taglio e barba', 45, 28)] },
  beauty_salon: {
    planets: APPOINTMENTS,
    services: [s('Facial', 'Pulizia del viso', 60, 50), s('Leg waxing', 'Ceretta gambe', 30, 25), s('Eyebrow shaping', 'Definizione sopracciglia', 15, 10)],
  },
  nail_salon: { planets: APPOINTMENTS, services: [s('Manicure', 'Manicure', 30, 20), s('Gel polish', 'Semipermanente', 45, 30), s('Pedicure', 'Pedicure', 45, 35)] },
  spa: { planets: APPOINTMENTS, services: [s('Relaxing massage', 'Massaggio rilassante', 60, 70), s('Spa day pass', 'Ingresso spa', 120, 45), s('Body scrub', 'Scrub corpo', 45, 50)] },
  massage: { planets: APPOINTMENTS, services: [s('Massage', 'Massaggio', 60, 60), s('Short massage', 'Massaggio breve', 30, 35), s('Sports massage', 'Massaggio sportivo', 60, 65)] },
  tattoo: { planets: APPOINTMENTS, services: [s('Consultation', 'Consulenza', 30, 0), s('Small tattoo', 'Tatuaggio piccolo', 60, 100), s('Session (3 hours)', 'Seduta (3 ore)', 180, 300)] },
  yoga_studio: { planets: CLASSES, services: [s('Yoga class', 'Lezione di yoga', 60, 15), s('Private lesson', 'Lezione privata', 60, 50), s('Beginners class', 'Lezione principianti', 75, 15)] },
  pilates_studio: { planets: CLASSES, services: [s('Mat class', 'Lezione matwork', 55, 15), s('Reformer class', 'Lezione reformer', 55, 30), s('Private lesson', 'Lezione privata', 55, 60)] },
  fitness_gym: { planets: CLASSES, services: [s('Group class', 'Corso di gruppo', 45, 10), s('Personal session', 'Allenamento personale', 60, 40), s('Fitness assessment', 'Valutazione iniziale', 45, 30)] },
  personal_training: {
    planets: APPOINTMENTS,
    services: [s('Training session', 'Sessione di allenamento', 60, 45), s('Assessment', 'Valutazione', 60, 50), s('Pair session', 'Sessione in coppia', 60, 60)],
  },
  dance_studio: { planets: CLASSES, services: [s('Dance class', 'Lezione di danza', 60, 15), s('Private lesson', 'Lezione privata', 60, 45), s('Trial class', 'Lezione di prova', 60, 0)] },
  martial_arts: { planets: CLASSES, services: [s('Class', 'Lezione', 60, 12), s('Private lesson', 'Lezione privata', 60, 40), s('Trial class', 'Lezione di prova', 60, 0)] },
  physiotherapy: {
    planets: APPOINTMENTS,
    services: [s('First assessment', 'Prima valutazione', 60, 70), s('Physiotherapy session', 'Seduta di fisioterapia', 45, 55), s('Manual therapy', 'Terapia manuale', 30, 45)],
  },
  dental: { planets: APPOINTMENTS, services: [s('Check-up', 'Visita di controllo', 30, 60), s('Hygiene and cleaning', 'Igiene dentale', 45, 80), s('Filling', 'Otturazione', 60, 120)] },
  medical_clinic: { planets: APPOINTMENTS, services: [s('Consultation', 'Visita', 30, 100), s('Follow-up visit', 'Visita di controllo', 20, 70), s('Certificate', 'Certificato', 15, 40)] },
  psychology: { planets: APPOINTMENTS, services: [s('First meeting', 'Primo colloquio', 50, 60), s('Session', 'Seduta', 50, 70), s('Couples session', 'Seduta di coppia', 75, 90)] },
  nutritionist: { planets: APPOINTMENTS, services: [s('First visit', 'Prima visita', 60, 90), s('Follow-up', 'Controllo', 30, 50), s('Meal plan', 'Piano alimentare', 45, 60)] },
  veterinary: { planets: APPOINTMENTS, services: [s('Check-up', 'Visita', 30, 50), s('Vaccination', 'Vaccinazione', 20, 45), s('Follow-up', 'Controllo', 20, 35)] },
  pet_grooming: { planets: APPOINTMENTS, services: [s('Bath and brush', 'Bagno e spazzolatura', 60, 30), s('Full groom', 'Toelettatura completa', 120, 55), s('Nail trim', 'Taglio unghie', 15, 10)] },
  photography: { planets: APPOINTMENTS, services: [s('Portrait session', 'Servizio ritratto', 60, 120), s('Passport photos', 'Fototessere', 15, 12), s('Family session', 'Servizio famiglia', 90, 180)] },
  music_school: { planets: CLASSES, services: [s('Individual lesson', 'Lezione individuale', 45, 30), s('Group lesson', 'Lezione di gruppo', 60, 18), s('Trial lesson', 'Lezione di prova', 30, 0)] },
  language_school: { planets: CLASSES, services: [s('Group lesson', 'Lezione di gruppo', 90, 20), s('Private lesson', 'Lezione privata', 60, 35), s('Placement test', 'Test di livello', 30, 0)] },
  tutoring: { planets: CLASSES, services: [s('Tutoring hour', 'Ora di ripetizione', 60, 25), s('Exam preparation', 'Preparazione esame', 90, 40), s('Small group', 'Piccolo gruppo', 60, 15)] },
  restaurant: { planets: ['booking', 'crm', 'content'], services: [s('Table for two', 'Tavolo per due', 90, 0), s('Table for four', 'Tavolo per quattro', 120, 0), s('Tasting menu', 'Menu degustazione', 150, 60)] },
  cafe: { planets: SHOP, services: [s('Breakfast', 'Colazione', 20, 5), s('Lunch', 'Pranzo', 45, 12), s('Aperitivo', 'Aperitivo', 60, 10)] },
  bakery: { planets: SHOP, services: [s('Cake order', 'Torta su ordinazione', 15, 35), s('Bread order', 'Ordine di pane', 10, 8), s('Pastry tray', 'Vassoio di pasticceria', 15, 25)] },
  retail_shop: { planets: SHOP, services: [s('Personal shopping', 'Consulenza d’acquisto', 45, 0), s('Alterations', 'Modifiche sartoriali', 30, 15), s('Gift wrapping', 'Confezione regalo', 10, 3)] },
  florist: { planets: SHOP, services: [s('Bouquet', 'Bouquet', 20, 35), s('Wedding consultation', 'Consulenza matrimonio', 60, 0), s('Delivery', 'Consegna', 30, 10)] },
  consulting: { planets: PROJECTS, services: [s('Intro call', 'Chiamata conoscitiva', 30, 0), s('Consulting hour', 'Ora di consulenza', 60, 90), s('Half-day workshop', 'Workshop di mezza giornata', 240, 450)] },
  real_estate: { planets: PROJECTS, services: [s('Property viewing', 'Visita immobile', 45, 0), s('Valuation', 'Valutazione immobile', 60, 0), s('Contract meeting', 'Incontro per il contratto', 60, 0)] },
  car_repair: { planets: APPOINTMENTS, services: [s('Service', 'Tagliando', 120, 180), s('Tyre change', 'Cambio gomme', 45, 40), s('Diagnosis', 'Diagnosi', 30, 35)] },
  cleaning: { planets: PROJECTS, services: [s('Home cleaning (3 hours)', 'Pulizia casa (3 ore)', 180, 75), s('Office cleaning', 'Pulizia ufficio', 120, 60), s('Quote visit', 'Sopralluogo per preventivo', 30, 0)] },
  other: { planets: APPOINTMENTS, services: [s('Appointment', 'Appuntamento', 60, 50), s('Short appointment', 'Appuntamento breve', 30, 30)] },
};
