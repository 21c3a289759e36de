/**
 * The one serializer for Multiverbe's own API: database rows (snake_case) become camelCase objects,
 * dates become ISO strings. The topic-queue API keeps snake_case because its wire contract says so
 * (see `serializeSnake`).
 *
 * A card's data (`data`, on the card and on its buttons, and `cardData` in a click) belongs to whoever
 * wrote it — an agent, the owner's software — and is handed back exactly as written: an agent that puts
 * `{ "booking_id": 7 }` on a button gets `booking_id` back with the click, not `bookingId`.
 */
export function serialize<T = unknown>(value: unknown): T {
  return convert(value, camel) as T;
}

export function serializeSnake<T = unknown>(value: unknown): T {
  return convert(value, (k) => k) as T;
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
