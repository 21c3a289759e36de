import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as requestsRoute from '@/app/api/requests/route';
import * as topicsRoute from '@/app/api/topics/route';
import { signAccessToken } from '@/lib/auth';
import { resetConfigForTests } from '@/lib/config';
import type { SessionUser } from '@/lib/db';
import { createWorkspace } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser, joinWorkspace } from '@/test/fixtures';
import { createApiKey } from './auth';
import { callRoute } from './testing';

/**
 * The submit limits (POST /api/requests) per caller and per window. Only Date is faked: the limits'
 * windows follow the app's clock (lib/ratelimit takes `now` from its caller), so each case sets the
 * instant it runs at instead of depending on where a real minute happens to end.
 */

process.env.LOG_LEVEL = 'silent';
setupTestDatabase();

let owner: SessionUser;
let member: SessionUser;
let workspaceId: string;
let topicId: string;
const keys: string[] = [];

const at = (time: string) => new Date(`2030-01-01T${time}Z`);

beforeAll(async () => {
  owner = await createUser('owner');
  member = await createUser('member');
  workspaceId = (await createWorkspace(owner, { name: 'Limits' })).id;
  await joinWorkspace(owner, workspaceId, member);
  for (const name of ['first', 'second']) keys.push((await createApiKey(owner, workspaceId, { name })).secret);
  topicId = (await callRoute(topicsRoute.POST, 'POST', '/api/topics', { key: keys[0], body: { name: 'limits', system_prompt: 'x' } })).body.data.id;
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  delete process.env.RATE_LIMIT_PER_MINUTE;
  delete process.env.RATE_LIMIT_PER_HOUR;
  resetConfigForTests();
});
afterAll(() => vi.useRealTimers());

function limits(perMinute: number, perHour: number) {
  Object.assign(process.env, { RATE_LIMIT_PER_MINUTE: String(perMinute), RATE_LIMIT_PER_HOUR: String(perHour) });
  resetConfigForTests();
}

const body = () => ({ prompt: 'x', topic_id: topicId });
const submitWithKey = (key: string) => callRoute(requestsRoute.POST, 'POST', '/api/requests', { key, body: body() });
/** A member submitting from Multiverbe's own pages: their session and the workspace they are in. */
const submitAs = async (user: SessionUser) =>
  callRoute(requestsRoute.POST, 'POST', '/api/requests', {
    headers: { authorization: `Bearer ${await signAccessToken(user)}`, 'x-workspace-id': workspaceId },
    body: body(),
  });

describe('submit limits', () => {
  it('count each person on their own: one used up, another member of the same workspace is still accepted', async () => {
    limits(1, 100);
    vi.setSystemTime(at('08:00:10'));
    expect((await submitAs(owner)).status).toBe(202);
    expect((await submitAs(owner)).status).toBe(429);
    expect((await submitAs(member)).status).toBe(202);
    expect((await submitAs(member)).status).toBe(429);
  });

  it('count each API key on its own: one used up, another key of the same workspace is still accepted', async () => {
    limits(1, 100);
    vi.setSystemTime(at('08:30:10'));
    expect((await submitWithKey(keys[0]!)).status).toBe(202);
    expect((await submitWithKey(keys[0]!)).status).toBe(429);
    expect((await submitWithKey(keys[1]!)).status).toBe(202);
  });

  it('answer 429 in the envelope past the per-minute limit, long before the hourly one, and accept again the next minute', async () => {
    limits(2, 100);
    vi.setSystemTime(at('09:00:15'));
    expect((await submitWithKey(keys[1]!)).status).toBe(202);
    expect((await submitWithKey(keys[1]!)).status).toBe(202);
    const refused = await submitWithKey(keys[1]!);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, data: null, error: { code: 'rate_limited', message: 'Too many requests: try again in 45 seconds.' } });
    expect(refused.headers.get('retry-after')).toBe('45');
    expect(refused.headers.get('ratelimit')).toBe('"minute";r=0;t=45');
    expect(refused.headers.get('ratelimit-policy')).toBe('"minute";q=2;w=60, "hour";q=100;w=3600');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');

    vi.setSystemTime(at('09:00:59'));
    const stillRefused = await submitWithKey(keys[1]!);
    expect(stillRefused.status).toBe(429);
    expect(stillRefused.headers.get('retry-after')).toBe('1');
    vi.setSystemTime(at('09:01:00'));
    const next = await submitWithKey(keys[1]!);
    expect(next.status).toBe(202);
    expect(next.headers.get('ratelimit')).toBe('"minute";r=1;t=60');
  });
});
