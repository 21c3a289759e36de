import { ApiError } from '@/lib/api';
import { config } from '@/lib/config';
import { hitRateLimit, type RateLimitResult } from '@/lib/ratelimit';
import type { Caller } from './auth';

/**
 * The contract's limits on POST /api/requests only, per API key: RATE_LIMIT_PER_MINUTE and
 * RATE_LIMIT_PER_HOUR, counted in Postgres so they hold across instances. Members submitting from the
 * app are limited the same way, per person; tasks a key gives agents through MCP count in the same windows.
 * `now` places the windows (the caller's clock, as everywhere the app decides about time).
 */
export async function checkSubmitLimit(caller: Caller, now = new Date()): Promise<Record<string, string>> {
  const cfg = config();
  const subject = caller.kind === 'key' ? `key:${caller.keyId ?? 'env'}` : `user:${caller.user.id}`;
  const windows = [
    { name: 'minute', seconds: 60, limit: cfg.RATE_LIMIT_PER_MINUTE },
    { name: 'hour', seconds: 3600, limit: cfg.RATE_LIMIT_PER_HOUR },
  ];
  const results = await Promise.all(windows.map((w) => hitRateLimit(`topic-submit:${subject}:${w.name}`, w.seconds, w.limit, now)));
  const headers = rateLimitHeaders(windows, results);
  const refused = results.filter((r) => !r.allowed);
  if (refused.length > 0) {
    const retryAfter = Math.max(...refused.map((r) => r.retryAfter));
    throw new ApiError('rate_limited', 'api.topics.tooManyRequests', { seconds: retryAfter }, { headers: { ...headers, 'Retry-After': String(retryAfter) } });
  }
  return headers;
}

/**
 * slowapi's X-RateLimit-* headers (the contract names X-RateLimit-Remaining) and the IETF draft's
 * structured RateLimit-Policy / RateLimit fields, both describing the window closest to its limit.
 */
function rateLimitHeaders(windows: { name: string; seconds: number; limit: number }[], results: RateLimitResult[]): Record<string, string> {
  const tightest = results.reduce((best, r, i) => (r.remaining < results[best]!.remaining ? i : best), 0);
  const t = results[tightest]!;
  return {
    'X-RateLimit-Limit': String(t.limit),
    'X-RateLimit-Remaining': String(t.remaining),
    'X-RateLimit-Reset': String(Math.ceil(t.resetAt.getTime() / 1000)),
    'RateLimit-Policy': windows.map((w) => `"${w.name}";q=${w.limit};w=${w.seconds}`).join(', '),
    RateLimit: `"${windows[tightest]!.name}";r=${t.remaining};t=${t.retryAfter}`,
  };
}
