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

export function serializeSnake<T>(value: T): SnakeWire<T> {
  return convert(value, (k) => k) as SnakeWire<T>;
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
 * What `serialize` makes of a `T`, as a client receives it in JSON, modelled on type-fest's `Jsonify`
 * (which Inngest exports): a value with `toJSON` is what that returns (a Date its ISO string);
 * properties that are functions or undefined are left out, and one that may be undefined becomes
 * optional; in an array they become null. Then every key is renamed by `camel`, at any depth, except
 * inside the values kept as written (AS_WRITTEN). `unknown` stays unknown. Components type what the API
 * sends them as `Wire<LibType>`.
 */
export type Wire<T> = Json<T, true>;

/** What `serializeSnake` (the topic-queue contract) makes of a `T`: `Wire` without the renaming. */
export type SnakeWire<T> = Json<T, false>;

type Json<T, Rename extends boolean> = unknown extends T
  ? T
  : T extends { toJSON(): infer J }
    ? J extends string | number | boolean | null
      ? J
      : Json<J, Rename>
    : T extends string | number | boolean | null
      ? T
      : T extends readonly unknown[]
        ? { -readonly [I in keyof T]: Element<T[I], Rename> }
        : T extends object
          ? Flat<
              { [K in keyof T as KeyOf<K, T[K], 'required', Rename>]: ValueOf<K, T[K], Rename> } & {
                [K in keyof T as KeyOf<K, T[K], 'optional', Rename>]?: ValueOf<K, Exclude<T[K], undefined>, Rename>;
              }
            >
          : never;

type Element<E, Rename extends boolean> = E extends Dropped ? null : Json<E, Rename>;

/** What JSON leaves out of an object (and turns into null in an array). */
type Dropped = undefined | symbol | ((...args: never[]) => unknown);

type Presence<V> = unknown extends V ? 'required' : [V] extends [Dropped] ? 'dropped' : undefined extends V ? 'optional' : 'required';

type KeyOf<K, V, Want extends 'required' | 'optional', Rename extends boolean> = K extends symbol
  ? never
  : Presence<V> extends Want
    ? Rename extends true
      ? Renamed<K>
      : K
    : never;

type ValueOf<K, V, Rename extends boolean> = Rename extends true ? (Renamed<K> extends AsWritten ? Json<V, false> : Json<V, true>) : Json<V, false>;

type Renamed<K> = K extends string ? Camel<K> : K;

type AsWritten = 'data' | 'cardData';

type Flat<T> = { [K in keyof T]: T[K] };

/** `camel` at the type level: `_` followed by a lower-case letter or a digit becomes that character upper-cased. */
type Camel<K extends string> = K extends `${infer Head}_${infer C}${infer Rest}`
  ? C extends LowerOrDigit
    ? `${Head}${Uppercase<C>}${Camel<Rest>}`
    : `${Head}_${Camel<`${C}${Rest}`>}`
  : K;

type LowerOrDigit = 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h' | 'i' | 'j' | 'k' | 'l' | 'm' | 'n' | 'o' | 'p' | 'q' | 'r' | 's' | 't' | 'u' | 'v' | 'w' | 'x' | 'y' | 'z' | '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
