import * as crypto from 'node:crypto';

/**
 * A copy of `value` with object keys sorted at every level. JSON.stringify keeps insertion order, so two
 * equal schemas built in different orders would serialize differently and break the prompt cache.
 */
export function canonicalize<T>(value: T): T {
  if (Array.isArray(value)) return value.map(canonicalize) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = canonicalize(v);
    }
    return out as T;
  }
  return value;
}

export function stableStringify(value: unknown): string {
  return JSON.stringify(canonicalize(value)) ?? 'null';
}

// One-shot hashing (Node 20.12+) skips the Hash object createHash makes for every call.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export function shortHash(text: string): string {
  return (oneShot ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex')).slice(0, 16);
}
