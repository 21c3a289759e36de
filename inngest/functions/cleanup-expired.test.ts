import { describe, expect, it } from 'vitest';
import { asService } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import { RUNTIMES, startRuntime } from '../testing';
import { cleanupExpired } from './cleanup-expired';

// A database per runtime: the function deletes across the whole database and counts what it deleted.
describe.each(RUNTIMES)('%s', (runtimeName) => {
  setupTestDatabase();

  it('deletes what has expired, on the hour, and keeps the rest', async () => {
    await asService(async (tx) => {
      const [user] = await tx.query<{ id: string }>(`insert into auth.users (email) values ('cleanup@example.com') returning id`);
      await tx.query(
        `insert into private.refresh_tokens (token_hash, user_id, family_id, expires_at, revoked_at) values
           ('expired', $1, gen_random_uuid(), now() - interval '1 minute', null),
           ('revoked-not-expired', $1, gen_random_uuid(), now() + interval '1 day', now()),
           ('valid', $1, gen_random_uuid(), now() + interval '1 day', null)`,
        [user!.id],
      );
      await tx.query(
        `insert into private.rate_limit_counters (key, window_start, hits) values
           ('login:old', now() - interval '2 days', 3), ('login:current', now(), 1)`,
      );
      await tx.query(
        `with old as (
           insert into private.executor_events (name, created_at, dispatched_at)
           values ('test/old', now() - interval '40 days', now() - interval '40 days') returning id)
         insert into private.executor_runs (function_id, event_id, event, status, run_at, finished_at)
         select 'old-function', id, '{}'::jsonb, 'completed', now() - interval '40 days', now() - interval '40 days' from old`,
      );
      const [agent] = await tx.query<{ id: string }>(`insert into private.agents (owner_user_id, name) values ($1, 'Nova') returning id`, [user!.id]);
      await tx.query(
        `insert into private.agent_api_keys (agent_id, kind, prefix, key_hash, label, expires_at) values
           ($1, 'host', 'mvh_old', 'host-expired-long-ago', 'host-1', now() - interval '2 hours'),
           ($1, 'host', 'mvh_recent', 'host-just-expired', 'host-1', now() - interval '5 minutes'),
           ($1, 'host', 'mvh_live', 'host-valid', 'host-1', now() + interval '1 day'),
           ($1, 'key', 'mvk_key', 'agent-key', 'laptop', null)`,
        [agent!.id],
      );
      await tx.query(
        `insert into private.agent_connections (agent_id, connection_id, last_heartbeat_at) values
           ($1, 'laptop-gone', now() - interval '2 days'), ($1, 'laptop-live', now())`,
        [agent!.id],
      );
    });

    const topOfNextHour = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000);
    let now = new Date(topOfNextHour.getTime() - 1);
    const runtime = await startRuntime(runtimeName, { functions: [cleanupExpired], now: () => now });
    try {
      await runtime.runUntilIdle();
      now = topOfNextHour;
      await runtime.runUntilIdle();
    } finally {
      await runtime.stop();
    }

    expect(await runtime.runs('cleanup-expired')).toEqual([
      expect.objectContaining({
        status: 'completed',
        output: { rateLimitWindows: 1, refreshTokens: 1, executorRuns: 1, executorEvents: 1, hostTokens: 1, agentConnections: 1 },
      }),
    ]);
    const left = await asService(async (tx) => ({
      tokens: (await tx.query<{ token_hash: string }>('select token_hash from private.refresh_tokens order by 1')).map((r) => r.token_hash),
      windows: (await tx.query<{ key: string }>('select key from private.rate_limit_counters')).map((r) => r.key),
      events: (await tx.query(`select 1 from private.executor_events where name = 'test/old'`)).length,
      agentKeys: (await tx.query<{ key_hash: string }>('select key_hash from private.agent_api_keys order by 1')).map((r) => r.key_hash),
      connections: (await tx.query<{ connection_id: string }>('select connection_id from private.agent_connections')).map((r) => r.connection_id),
    }));
    expect(left).toEqual({
      tokens: ['revoked-not-expired', 'valid'],
      windows: ['login:current'],
      events: 0,
      agentKeys: ['agent-key', 'host-just-expired', 'host-valid'],
      connections: ['laptop-live'],
    });
  });
});
