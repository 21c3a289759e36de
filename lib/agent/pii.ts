import { createHmac, randomBytes } from 'node:crypto';
import type { Tx } from '@/lib/db';
import { compileKnownNames, nameKey, type KnownNames, type NameForm } from './names';

/**
 * The PII boundary. Everything the runtime sends to a model passes through `PiiVault.pseudonymize` (text)
 * or `pseudonymizeValue` (a tool's output, value by value, before it is written as JSON): emails, phone
 * numbers, IBANs, card numbers, Italian codici fiscali and the names the run's policy knows (the workspace's
 * customers, leads, staff and members) become aliases (`Cliente-7F3A`, `email-09C2`). The same value always gets the same alias in a workspace (an HMAC
 * under a key kept in the database), so prompts stay cacheable and an agent's notes stay consistent from run
 * to run. The alias → value map lives only in this process, for the run. Which names are known is the run's
 * policy (`RunPolicy.knownNames`); how they are found in text is ./names.ts.
 */

type Kind = 'name' | 'email' | 'iban' | 'card' | 'cf' | 'phone';

const PREFIX: Record<Kind, string> = { name: 'Cliente', email: 'email', iban: 'iban', card: 'carta', cf: 'cf', phone: 'tel' };
const ALIAS = /\b(?:Cliente|email|iban|carta|cf|tel)-[0-9A-F]{4,16}\b/g;

// Starts only where a run of local-part characters starts, so a long word is tried once, not at each of its letters.
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
// Uppercase, compact or in groups of four (how IBANs are written); the checksum decides.
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g;
const CARD = /(?<![\w-])\d(?:[ -]?\d){12,18}(?![\w-])/g;
const CODICE_FISCALE = /\b[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]\b/gi;
// A run of 9–15 digits with the separators people write; see `isPhone` for which runs count.
const PHONE = /(?<![\w+./-])(?:\+|00)?\d(?:[ .()-]{0,2}\d){7,14}(?![\w/-])/g;
// Eight digits with at most two of the phone separators between any two: part of every CARD and PHONE match.
const DIGIT_RUN = /\d(?:[ .()-]{0,2}\d){7}/;

let instanceKey: Promise<Buffer> | undefined;

/** The instance's alias key, created once and kept in `private.instance_settings`. */
export function aliasKey(tx: Tx): Promise<Buffer> {
  instanceKey ??= (async () => {
    await tx.query(`insert into private.instance_settings (key, value) values ('pii_alias_key', $1) on conflict (key) do nothing`, [
      randomBytes(32).toString('hex'),
    ]);
    const [row] = await tx.query<{ value: string }>(`select value from private.instance_settings where key = 'pii_alias_key'`);
    return Buffer.from(row!.value, 'hex');
  })().catch((error) => {
    instanceKey = undefined;
    throw error;
  });
  return instanceKey;
}

export class PiiVault {
  private readonly key: Buffer;
  private readonly names: KnownNames | undefined;
  /** The key of the name of the person the run answers, which reaches the model as written. */
  private readonly speaker: string | undefined;
  private readonly aliasOf = new Map<string, string>();
  private readonly valueOf = new Map<string, string>();
  // Each string of the tool outputs seen this run, pseudonymized: a run reads the same names, emails and
  // enum values turn after turn, and a lookup costs far less than the passes.
  private readonly strings = new Map<string, string>();
  // The replacers, made once per run rather than on every pass.
  private readonly asEmail = (m: string) => this.aliasFor('email', m);
  private readonly asIban = (m: string) => this.aliasFor('iban', m);
  private readonly asCard = (m: string) => this.aliasFor('card', m);
  private readonly asCf = (m: string) => this.aliasFor('cf', m);
  private readonly asPhone = (m: string) => this.aliasFor('phone', m);
  // A short form of one person's name gets that person's alias, which re-identifies to the name as recorded.
  private readonly asName = (match: string, form: NameForm) =>
    form.person === this.speaker ? match : this.alias('name', `name:${form.person}`, form.full ?? match);

  /** `speaker`: the person the run answers, by the name the conversation shows them under. */
  constructor(instanceKey: Buffer, workspaceId: string, knownNames: string[], speaker?: string) {
    this.key = createHmac('sha256', instanceKey).update(workspaceId).digest();
    this.names = compileKnownNames(workspaceId, knownNames);
    this.speaker = speaker ? nameKey(speaker) : undefined;
  }

  /** The text with every piece of PII replaced by its alias. */
  pseudonymize(text: string): string {
    // Each pass below only runs when the text has what every match of it needs: most text given to a model
    // (prompts, tool results) has no PII of most kinds, and a regex tries each position of the text.
    let out = text.includes('@') ? text.replace(EMAIL, this.asEmail) : text;
    out = out.replace(IBAN, this.asIban);
    if (DIGIT_RUN.test(out)) out = out.replace(CARD, this.asCard);
    out = out.replace(CODICE_FISCALE, this.asCf);
    if (DIGIT_RUN.test(out)) out = out.replace(PHONE, this.asPhone);
    if (this.names) out = this.names.replace(out, this.asName);
    return out;
  }

  /**
   * A tool's output with every string in it pseudonymized, object keys included, and numbers long enough to be
   * a phone or card number that turn out to be one replaced by their alias: what JSON.stringify then writes is
   * what pseudonymizing its text would give (no pattern can match across JSON's quotes and separators).
   */
  pseudonymizeValue(value: unknown): unknown {
    if (typeof value === 'string') {
      let safe = this.strings.get(value);
      if (safe === undefined) this.strings.set(value, (safe = this.pseudonymize(value)));
      return safe;
    }
    if (typeof value === 'number') {
      if (value > -1e7 && value < 1e7) return value;
      const text = String(value);
      const safe = this.pseudonymize(text);
      return safe === text ? value : safe;
    }
    if (typeof value !== 'object' || value === null) return value;
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return this.pseudonymizeValue((value as { toJSON(): unknown }).toJSON());
    if (Array.isArray(value)) return value.map((v) => this.pseudonymizeValue(v));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwn(out, this.pseudonymizeValue(key) as string, this.pseudonymizeValue((value as Record<string, unknown>)[key]));
    return out;
  }

  /** `value` with every alias this run handed out replaced by the real value (strings, arrays and objects). */
  reidentify<T>(value: T): T {
    // Every alias has a hyphen: most strings (numbers, dates, enum values) have none and are returned as they are.
    if (typeof value === 'string') return (value.includes('-') ? value.replace(ALIAS, (a) => this.valueOf.get(a) ?? a) : value) as T;
    if (Array.isArray(value)) return value.map((v) => this.reidentify(v)) as T;
    if (value && typeof value === 'object') {
      // Always a new object, as plain as the one JSON.parse gives.
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) setOwn(out, key, this.reidentify((value as Record<string, unknown>)[key]));
      return out as T;
    }
    return value;
  }

  /** The alias of `match`, a match of the `kind` pass, or `match` as it is when its checksum says it is not one. */
  private aliasFor(kind: Exclude<Kind, 'name'>, match: string): string {
    const normalized = normalize(kind, match);
    return normalized === undefined ? match : this.alias(kind, `${kind}:${normalized}`, match);
  }

  /** The alias of the value `id` names; `value` is what it re-identifies to when this run hands it out first. */
  private alias(kind: Kind, id: string, value: string): string {
    const known = this.aliasOf.get(id);
    if (known !== undefined) return known;
    const digest = createHmac('sha256', this.key).update(id).digest('hex').toUpperCase();
    // Four hex digits read well; on a clash inside this run, take more.
    let alias = `${PREFIX[kind]}-${digest.slice(0, 4)}`;
    for (let len = 6; len <= 16 && this.valueOf.has(alias); len += 2) alias = `${PREFIX[kind]}-${digest.slice(0, len)}`;
    this.aliasOf.set(id, alias);
    this.valueOf.set(alias, value);
    return alias;
  }
}

/** `out[key] = value`, where a "__proto__" key stays an own property instead of replacing the prototype. */
function setOwn(out: Record<string, unknown>, key: string, value: unknown) {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** The value a match stands for, the same however it was written; undefined when the match is not PII. */
function normalize(kind: Exclude<Kind, 'name'>, match: string): string | undefined {
  switch (kind) {
    case 'email':
      return match.toLowerCase();
    case 'iban':
      return ibanValid(match) ? match.replace(/ /g, '') : undefined;
    case 'card':
      return luhnValid(match) ? match.replace(/\D/g, '') : undefined;
    case 'cf': {
      const upper = match.toUpperCase();
      return codiceFiscaleValid(upper) ? upper : undefined;
    }
    case 'phone':
      return isPhone(match) ? normalizePhone(match) : undefined;
  }
}

function isPhone(match: string): boolean {
  const digits = match.replace(/\D/g, '');
  if (digits.length < 9 || digits.length > 15) return false;
  // International prefix, or an Italian landline (0…) or mobile (3…) number: other digit runs are
  // amounts, ids and dates more often than phones.
  return match.startsWith('+') || match.startsWith('00') || digits.startsWith('0') || digits.startsWith('3');
}

function normalizePhone(match: string): string {
  const digits = match.replace(/\D/g, '');
  if (match.startsWith('+')) return `+${digits}`;
  if (digits.startsWith('00')) return `+${digits.slice(2)}`;
  return digits;
}

export function luhnValid(text: string): boolean {
  const digits = text.replace(/\D/g, '');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function ibanValid(text: string): boolean {
  const iban = text.replace(/ /g, '');
  if (iban.length < 15 || iban.length > 34) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const code = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of code) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}

const CF_ODD: Record<string, number> = {
  0: 1, 1: 0, 2: 5, 3: 7, 4: 9, 5: 13, 6: 15, 7: 17, 8: 19, 9: 21,
  A: 1, B: 0, C: 5, D: 7, E: 9, F: 13, G: 15, H: 17, I: 19, J: 21, K: 2, L: 4, M: 18,
  N: 20, O: 11, P: 3, Q: 6, R: 8, S: 12, T: 14, U: 16, V: 10, W: 22, X: 25, Y: 24, Z: 23,
};

/** The codice fiscale's check letter (the 16th character) matches the other fifteen. */
export function codiceFiscaleValid(cf: string): boolean {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const ch = cf[i]!;
    sum += i % 2 === 0 ? CF_ODD[ch]! : /\d/.test(ch) ? Number(ch) : ch.charCodeAt(0) - 65;
  }
  return String.fromCharCode(65 + (sum % 26)) === cf[15];
}
