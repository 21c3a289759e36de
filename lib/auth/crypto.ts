import 'server-only';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
/** A random secret for links and refresh tokens; only its hash is stored. */
export const newToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
