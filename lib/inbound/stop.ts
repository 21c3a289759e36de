import type { Locale } from '@/lib/i18n';

/**
 * The whole message, and nothing else, must be one of these for it to be an opt-out ("stop by at five"
 * is not one): compared in lower case, without accents, punctuation or repeated spaces. English: the
 * carriers' and Twilio's standard opt-out words. Italian: the verbs people write to a business that keeps
 * messaging them. Documented in docs/replies.md; tested in lib/inbound/stop.test.ts.
 */
export const STOP_WORDS = [
  'stop',
  'stopall',
  'unsubscribe',
  'cancel',
  'end',
  'quit',
  'arresta',
  'annulla',
  'cancellami',
  'disiscrivimi',
  'basta',
  'basta messaggi',
  'non scrivermi piu',
  'non scrivetemi piu',
  'non voglio piu messaggi',
] as const;

const STOP = new Set<string>(STOP_WORDS);

/** Lower case, accents off ("più" is "piu"), every run of non-letters one space, trimmed. */
export const normalizeForStop = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

export const isStopRequest = (text: string) => STOP.has(normalizeForStop(text));

/** The one message that may follow an opt-out, in the workspace's language. */
export function stopConfirmation(locale: Locale, business: string): string {
  return locale === 'it'
    ? `Non riceverai più messaggi da ${business}. Se cambi idea, diccelo di persona o al telefono.`
    : `You won't get more messages from ${business}. If you change your mind, tell us in person or by phone.`;
}
