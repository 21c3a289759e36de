import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { APPOINTMENT_STATUSES, type AppointmentStatus } from '@/lib/planets';
import { ZONE_COUNTRIES } from './zone-countries';

/**
 * One cell's text to one column's value, as the exports of salon tools write them (in English or
 * Italian): each returns the value, `null` for an empty cell, or a problem key for a cell it cannot read.
 */

export type Problem =
  | 'required'
  | 'tooLong'
  | 'nul'
  | 'email'
  | 'phone'
  | 'phoneNeedsCountry'
  | 'yesNo'
  | 'money'
  | 'duration'
  | 'durationRange'
  | 'dateTime'
  | 'time'
  | 'endBeforeStart'
  | 'status'
  | 'duplicate'
  | 'customerNotFound'
  | 'customerAmbiguous'
  | 'serviceNotFound'
  | 'serviceAmbiguous'
  | 'staffNotFound'
  | 'staffAmbiguous';

export class CellError {
  constructor(
    readonly problem: Problem,
    readonly params: Record<string, string | number> = {},
  ) {}
}

export function text(cell: string | undefined, max: number): string | null {
  const value = cell?.trim() ?? '';
  if (!value) return null;
  if (value.length > max) throw new CellError('tooLong', { max });
  // Postgres text cannot hold the NUL character: the row is reported rather than failing the import.
  if (value.includes('\u0000')) throw new CellError('nul');
  return value;
}

// The database's own check (customers.email): something@something, no spaces.
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
export function email(cell: string | undefined): string | null {
  const value = text(cell, 254);
  if (value === null) return null;
  if (!EMAIL.test(value)) throw new CellError('email');
  return value.toLowerCase();
}

/**
 * The workspace's country for numbers written without an international prefix: the country of its time
 * zone (tzdata's zone.tab), else Italy for an Italian workspace in UTC, else none (such numbers are then
 * refused, since guessing the country of "333 123 4567" could message a stranger).
 */
export function defaultCountry(timeZone: string, locale: string): CountryCode | undefined {
  return (ZONE_COUNTRIES[timeZone] as CountryCode | undefined) ?? (locale === 'it' ? 'IT' : undefined);
}

/** E.164 (+393331234567), or a problem: a number that is not valid for its country is not stored. */
export function phone(cell: string | undefined, country: CountryCode | undefined): string | null {
  const value = text(cell, 40);
  if (value === null) return null;
  const international = /^(\+|00)/.test(value);
  if (!international && !country) throw new CellError('phoneNeedsCountry');
  const parsed = parsePhoneNumberFromString(value.replace(/^00/, '+'), country);
  if (!parsed?.isValid()) throw new CellError('phone');
  return parsed.number;
}

const YES = new Set(['yes', 'y', 'true', '1', 'x', 'si', 'sì', 's', 'vero', 'ok', 'opt-in', 'optin', 'on']);
const NO = new Set(['no', 'n', 'false', '0', 'falso', 'opt-out', 'optout', 'off', '-']);
export function yesNo(cell: string | undefined): boolean | null {
  const value = cell?.trim().toLowerCase() ?? '';
  if (!value) return null;
  if (YES.has(value)) return true;
  if (NO.has(value)) return false;
  throw new CellError('yesNo');
}

/**
 * Cents from "25", "25.50", "25,50", "€ 1.234,50" or "1,234.50": the last of ',' and '.' followed by one
 * or two digits is the decimal mark, any other is a thousands separator.
 */
export function money(cell: string | undefined): number | null {
  const value = cell?.replace(/[€$£\s]|EUR|USD|GBP/gi, '') ?? '';
  if (!value) return null;
  const match = /^(\d{1,3}(?:[.,']\d{3})*|\d+)(?:[.,](\d{1,2}))?$/.exec(value);
  if (!match) throw new CellError('money');
  const units = Number(match[1]!.replace(/[.,']/g, ''));
  const cents = match[2] ? Number(match[2].padEnd(2, '0')) : 0;
  const total = units * 100 + cents;
  if (!Number.isSafeInteger(total) || total > 2_000_000_000) throw new CellError('money');
  return total;
}

/** Minutes from "45", "45 min", "1:30", "1h30", "1 h 30 m", "1.5 h". */
export function duration(cell: string | undefined): number | null {
  const value = cell?.trim().toLowerCase() ?? '';
  if (!value) return null;
  let minutes: number;
  let m: RegExpExecArray | null;
  if ((m = /^(\d+)\s*(?:m|min|mins|minutes|minuti)?$/.exec(value))) minutes = Number(m[1]);
  else if ((m = /^(\d+):(\d{2})$/.exec(value))) minutes = Number(m[1]) * 60 + Number(m[2]);
  else if ((m = /^(\d+)\s*(?:h|hr|hrs|hours|ora|ore)\s*(?:(\d+)\s*(?:m|min|mins|minutes|minuti)?)?$/.exec(value))) minutes = Number(m[1]) * 60 + Number(m[2] ?? 0);
  else if ((m = /^(\d+)[.,](\d+)\s*(?:h|hr|hrs|hours|ore)$/.exec(value))) minutes = Math.round(Number(`${m[1]}.${m[2]}`) * 60);
  else throw new CellError('duration');
  if (minutes < 5 || minutes > 1440) throw new CellError('durationRange');
  return minutes;
}

/** Wall-clock parts in the workspace's time zone, or an instant when the cell carried an offset. */
export type LocalDateTime = { year: number; month: number; day: number; hour: number; minute: number };

/**
 * A date, with a time or not: ISO (2026-12-07, 2026-12-07T10:00, 2026-12-07 10:00:00, with Z or +01:00
 * for an instant) or day first (07/12/2026 10:00, 7.12.26), as European exports write it. Month-first
 * (US) dates are read as day first; an export from a US tool should use ISO dates.
 */
export function dateTime(cell: string | undefined): { local: LocalDateTime } | { instant: Date } | null {
  const value = cell?.trim() ?? '';
  if (!value) return null;
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value);
  if (m) {
    const parts = checked(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0));
    if (m[7]) {
      const instant = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]!.padStart(2, '0')}:${m[5]}:${m[6] ?? '00'}${m[7].length === 5 ? `${m[7].slice(0, 3)}:${m[7].slice(3)}` : m[7]}`);
      if (Number.isNaN(instant.getTime())) throw new CellError('dateTime');
      return { instant };
    }
    return { local: parts };
  }
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})(?:[ ,T]+(\d{1,2})[:.](\d{2})(?::\d{2})?)?$/.exec(value);
  if (m) {
    const year = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    return { local: checked(year, Number(m[2]), Number(m[1]), Number(m[4] ?? 0), Number(m[5] ?? 0)) };
  }
  throw new CellError('dateTime');
}

/** "10:30", "10.30", "9:00:00", "10" (o'clock). */
export function timeOfDay(cell: string | undefined): { hour: number; minute: number } | null {
  const value = cell?.trim() ?? '';
  if (!value) return null;
  const m = /^(\d{1,2})(?:[:.](\d{2})(?::\d{2})?)?$/.exec(value);
  if (!m || Number(m[1]) > 23 || Number(m[2] ?? 0) > 59) throw new CellError('time');
  return { hour: Number(m[1]), minute: Number(m[2] ?? 0) };
}

function checked(year: number, month: number, day: number, hour: number, minute: number): LocalDateTime {
  const probe = new Date(Date.UTC(year, month - 1, day, hour, minute));
  const valid =
    year >= 1990 && year <= 2100 && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day && hour <= 23 && minute <= 59;
  if (!valid) throw new CellError('dateTime');
  return { year, month, day, hour, minute };
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
/** The instant a wall-clock time in `timeZone` names (a time skipped by a DST change moves forward an hour). */
export function zonedInstant(local: LocalDateTime, timeZone: string): Date {
  const guess = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  const first = offsetAt(guess, timeZone);
  const second = offsetAt(guess - first, timeZone);
  return new Date(guess - second);
}

const HOUR = 3_600_000;
/**
 * Offsets by zone and UTC hour: formatting an instant in a zone is most of what converting a row's time
 * costs, and a file's 50,000 appointments fall in a few thousand hours. An hour is kept only when its
 * first and last minute have the same offset (an hour with a change in it is computed per instant), so
 * every answer is the one computed afresh; the size is capped, since dates come from uploaded files.
 */
const hourOffsets = new Map<string, number>();
const MAX_HOUR_OFFSETS = 100_000;

function offsetAt(instant: number, timeZone: string): number {
  const hourStart = Math.floor(instant / HOUR) * HOUR;
  const key = `${timeZone} ${hourStart}`;
  const known = hourOffsets.get(key);
  if (known !== undefined) return known;
  const offset = computeOffset(hourStart, timeZone);
  if (offset !== computeOffset(hourStart + HOUR - 60_000, timeZone)) return computeOffset(instant, timeZone);
  if (hourOffsets.size >= MAX_HOUR_OFFSETS) hourOffsets.clear();
  hourOffsets.set(key, offset);
  return offset;
}

function computeOffset(instant: number, timeZone: string): number {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });
    zoneFormats.set(timeZone, format);
  }
  const p = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, Number(part.value)]));
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!);
  return wall - Math.floor(instant / 60_000) * 60_000;
}

const STATUS_WORDS: Record<string, AppointmentStatus> = {
  booked: 'booked',
  scheduled: 'booked',
  pending: 'booked',
  prenotato: 'booked',
  prenotata: 'booked',
  confirmed: 'confirmed',
  confermato: 'confirmed',
  confermata: 'confirmed',
  completed: 'completed',
  complete: 'completed',
  done: 'completed',
  paid: 'completed',
  checkedout: 'completed',
  completato: 'completed',
  completata: 'completed',
  eseguito: 'completed',
  eseguita: 'completed',
  pagato: 'completed',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  annullato: 'cancelled',
  annullata: 'cancelled',
  cancellato: 'cancelled',
  cancellata: 'cancelled',
  disdetto: 'cancelled',
  noshow: 'no_show',
  nonpresentato: 'no_show',
  nonpresentata: 'no_show',
  assente: 'no_show',
  mancato: 'no_show',
};

export function status(cell: string | undefined): AppointmentStatus | null {
  const value = cell?.trim() ?? '';
  if (!value) return null;
  const word = value.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/[^a-z_]/g, '');
  const found = STATUS_WORDS[word] ?? (APPOINTMENT_STATUSES as readonly string[]).find((s) => s === word);
  if (!found) throw new CellError('status');
  return found as AppointmentStatus;
}
