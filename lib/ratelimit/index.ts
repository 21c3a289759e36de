import { asService } from '@/lib/db';

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetAt: Date;
  /** Seconds until the window resets (for Retry-After). */
  retryAfter: number;
}

/**
 * Counts one hit against `key` in a fixed window held in Postgres, so it holds across instances. The
 * window is placed by `now`, the caller's clock, which also gives Retry-After: one clock for both.
 */
export async function hitRateLimit(key: string, windowSeconds: number, limit: number, now = new Date()): Promise<RateLimitResult> {
  const [row] = await asService((tx) =>
    tx.query<{ allowed: boolean; remaining: number; reset_at: Date }>(
      'select * from private.hit_rate_limit($1, $2, $3, $4)',
      [key, windowSeconds, limit, now],
    ),
  );
  const resetAt = new Date(row!.reset_at);
  return {
    allowed: row!.allowed,
    limit,
    remaining: row!.remaining,
    resetAt,
    retryAfter: Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)),
  };
}
