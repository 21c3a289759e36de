import { createHash } from 'node:crypto';

/** `value` as JSON with object keys sorted at every level, so equal arguments always hash the same. */
export function canonicalJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sort(value)) ?? 'null';
}

/** The hash an approval is bound to: the action type and its exact arguments. */
export function hashArgs(type: string, args: unknown): string {
  return createHash('sha256').update(`${type}\n${canonicalJson(args)}`).digest('hex');
}
