import type { Jsonify } from 'inngest/types';

/**
 * The one serializer for Multiverbe's own API: database rows (snake_case) become camelCase objects,
 * dates become ISO strings. The topic-queue API keeps snake_case because its wire contract says so
 * (see `serializeSnake`).
 *
 * A card's data (`data`, on the card and on its buttons, and `cardData` in a click) belongs to whoever
 * wrote it — an agent, the owner's software — and is handed back exactly as written: an agent that puts
 * `{ "booking_id": 7 }` on a button gets `booking_id` back with the click, not `bookingId`.
 */
export function serialize<T>(value: T): Wire<T> {
  return convert(value, camel) as Wire<T>;
}

export function serializeSnake<T>(value: T): Jsonify<T> {
  return convert(value, (k) => k) as Jsonify<T>;
}

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const AS_WRITTEN = new Set(['data', 'cardData']);

function convert(value: unknown, rename: (key: string) => string): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => convert(v, rename));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = rename(k);
      out[key] = AS_WRITTEN.has(key) ? v : convert(v, rename);
    }
    return out;
  }
  return value;
}

/**
 * What `serialize` makes of a `T`, as a client receives it in JSON: JSON's own rules (Inngest's
 * `Jsonify`: a Date is its ISO string, functions and `undefined` are dropped, a property that may be
 * undefined becomes optional), then every key renamed by `camel`, at any depth, except inside the
 * values kept as written (AS_WRITTEN). Components type what the API sends them as `Wire<LibType>`.
 */
export type Wire<T> = Renamed<Jsonify<T>>;

type Renamed<T> = T extends readonly unknown[]
  ? { [I in keyof T]: Renamed<T[I]> }
  : T extends object
    ? { [K in keyof T as K extends string ? Camel<K> : K]: K extends string ? (Camel<K> extends AsWritten ? T[K] : Renamed<T[K]>) : Renamed<T[K]> }
    : T;

type AsWritten = 'data' | 'cardData';

/** `camel` at the type level: `_` followed by a lower-case letter or a digit becomes that character upper-cased. */
type Camel<K extends string> = K extends `${infer Head}_${infer C}${infer Rest}`
  ? C extends LowerOrDigit
    ? `${Head}${Uppercase<C>}${Camel<Rest>}`
    : `${Head}_${Camel<`${C}${Rest}`>}`
  : K;

type LowerOrDigit = 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h' | 'i' | 'j' | 'k' | 'l' | 'm' | 'n' | 'o' | 'p' | 'q' | 'r' | 's' | 't' | 'u' | 'v' | 'w' | 'x' | 'y' | 'z' | '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
