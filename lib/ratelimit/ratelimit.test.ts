import { describe, expect, it } from 'vitest';
import { setupTestDatabase } from '@/test/db';
import { hitRateLimit } from '.';

setupTestDatabase();

// The windows follow the clock the caller passes, so these instants decide everything below.
const at = (time: string) => new Date(`2030-01-01T${time}Z`);

describe('hitRateLimit', () => {
  it('counts each key on its own: one used up, another still allowed', async () => {
    const now = at('09:00:10');
    expect((await hitRateLimit('test:a', 60, 2, now)).allowed).toBe(true);
    expect((await hitRateLimit('test:a', 60, 2, now)).allowed).toBe(true);
    expect(await hitRateLimit('test:a', 60, 2, now)).toMatchObject({ allowed: false, remaining: 0 });
    expect(await hitRateLimit('test:b', 60, 2, now)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('places the window by the caller’s clock: refused until it ends, Retry-After to the second, allowed from the next', async () => {
    expect(await hitRateLimit('test:clock', 60, 1, at('10:00:15'))).toMatchObject({ allowed: true, remaining: 0, resetAt: at('10:01:00'), retryAfter: 45 });
    expect(await hitRateLimit('test:clock', 60, 1, at('10:00:15'))).toMatchObject({ allowed: false, retryAfter: 45 });
    expect(await hitRateLimit('test:clock', 60, 1, at('10:00:59.500'))).toMatchObject({ allowed: false, retryAfter: 1 });
    expect(await hitRateLimit('test:clock', 60, 1, at('10:01:00'))).toMatchObject({ allowed: true, resetAt: at('10:02:00'), retryAfter: 60 });
  });
});
