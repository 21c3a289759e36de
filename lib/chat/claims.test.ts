import { describe, expect, it } from 'vitest';
import { createAgent } from '@/lib/agents';
import { asService, openPostgres, type Database } from '@/lib/db';
import { setupTestDatabase, testDbKind } from '@/test/db';
import { createUser } from '@/test/fixtures';
import { withDatabase } from '@/test/global-setup';
import { announceClaimableDeliveries, deliveryQueue, type ClaimedDelivery } from '.';

const getDb = setupTestDatabase();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An agent with `total` deliveries queued across `conversations` channels, interleaved as they would arrive. */
async function queueDeliveries(total: number, conversations: number) {
  const owner = await createUser('owner');
  const agent = await createAgent(owner, { name: 'Worker', capabilities: ['queues'] });
  const workspaceId = agent.workspaceIds[0]!;
  await asService(async (tx) => {
    await tx.query(
      `insert into public.conversations (workspace_id, kind, name, visibility)
       select $1, 'channel', 'load-' || g, 'public' from generate_series(1, $2::int) g`,
      [workspaceId, conversations],
    );
    await tx.query(
      `insert into public.messages (workspace_id, conversation_id, author_kind, author_user_id, author_name, body)
       select $1, c.id, 'person', $2, 'Owner', 'message ' || g
         from generate_series(0, $3::int - 1) g
         join (select id, row_number() over (order by id) - 1 as n from public.conversations where workspace_id = $1 and kind = 'channel' and name like 'load-%') c
           on c.n = g % $4
        order by g`,
      [workspaceId, owner.id, total, conversations],
    );
    await tx.query(
      `insert into private.deliveries (workspace_id, agent_id, conversation_id, message_id)
       select m.workspace_id, $2, m.conversation_id, m.id from public.messages m where m.workspace_id = $1 order by m.seq`,
      [workspaceId, agent.id],
    );
  });
  return agent.id;
}

const statusCounts = (agentId: string) =>
  asService((tx) =>
    tx.query<{ status: string; n: number }>(`select status, count(*)::int as n from private.deliveries where agent_id = $1 group by status`, [agentId]),
  ).then((rows) => Object.fromEntries(rows.map((r) => [r.status, r.n])));

/**
 * One agent connection: claims, handles (records the delivery), completes; stops when the queue is
 * empty. `dieAfterClaims`: the connection is killed right after its n-th claim, holding that batch.
 */
async function connection(
  db: Pick<Database, 'query' | 'transaction'>,
  agentId: string,
  connectionId: string,
  handled: Map<string, string[]>,
  options: { leaseSeconds: number; dieAfterClaims?: number },
) {
  const queue = deliveryQueue(db);
  let claims = 0;
  for (;;) {
    const batch: ClaimedDelivery[] = await queue.claim(agentId, connectionId, { limit: 10, leaseSeconds: options.leaseSeconds });
    if (batch.length === 0) {
      const [left] = await db.query<{ n: number }>(
        `select count(*)::int as n from private.deliveries where agent_id = $1 and status in ('pending', 'claimed')`,
        [agentId],
      );
      if (left!.n === 0) return;
      await sleep(25);
      continue;
    }
    if (++claims === options.dieAfterClaims) return;
    for (const delivery of batch) {
      try {
        await queue.complete(agentId, connectionId, delivery.id, { outcome: 'replied' });
      } catch (error) {
        // Too slow: the lease ran out and another connection holds the delivery now. It is theirs.
        if ((error as { status?: number }).status === 409) continue;
        throw error;
      }
      handled.set(delivery.id, [...(handled.get(delivery.id) ?? []), connectionId]);
    }
  }
}

describe('claiming deliveries', () => {
  it('hands each delivery to exactly one connection and reclaims what a dead connection held (one connection)', async () => {
    const agentId = await queueDeliveries(120, 12);
    const db = getDb();
    const handled = new Map<string, string[]>();
    // A connection that dies holding its first batch, then two that share the rest on the same database.
    await connection(db, agentId, 'doomed', handled, { leaseSeconds: 0.3, dieAfterClaims: 1 });
    expect((await statusCounts(agentId)).claimed).toBe(10);
    await Promise.all(['a', 'b'].map((id) => connection(db, agentId, id, handled, { leaseSeconds: 30 })));
    expect(handled.size).toBe(120);
    expect([...handled.values()].every((by) => by.length === 1)).toBe(true);
    expect(await statusCounts(agentId)).toEqual({ done: 120 });
    const [reclaimed] = await asService((tx) =>
      tx.query<{ n: number }>(`select count(*)::int as n from private.deliveries where agent_id = $1 and attempts = 2`, [agentId]),
    );
    expect(reclaimed!.n).toBe(10);
  });

  it('refuses to complete a delivery whose lease was lost to another connection', async () => {
    const agentId = await queueDeliveries(1, 1);
    const queue = deliveryQueue(getDb());
    const [first] = await queue.claim(agentId, 'slow', { leaseSeconds: 0.2 });
    await sleep(300);
    const [again] = await queue.claim(agentId, 'fast');
    expect(again!.id).toBe(first!.id);
    await expect(queue.complete(agentId, 'slow', first!.id, { outcome: 'replied' })).rejects.toMatchObject({ status: 409 });
    await queue.complete(agentId, 'fast', again!.id, { outcome: 'replied' });
    await expect(queue.complete(agentId, 'fast', again!.id, { outcome: 'replied' })).rejects.toMatchObject({ status: 409 });
  });

  it('lets only the connection holding a lease extend it, so a long turn keeps its delivery', async () => {
    const agentId = await queueDeliveries(1, 1);
    const queue = deliveryQueue(getDb());
    const [held] = await queue.claim(agentId, 'long-turn', { leaseSeconds: 0.3 });
    const extended = await queue.extend(agentId, 'long-turn', held!.id, 30);
    expect(extended.leaseExpiresAt.getTime()).toBeGreaterThan(held!.leaseExpiresAt.getTime());
    await sleep(400);
    // Past the first lease: still held, so another connection gets nothing.
    expect(await queue.claim(agentId, 'other')).toEqual([]);
    await expect(queue.extend(agentId, 'other', held!.id, 30)).rejects.toMatchObject({ status: 409 });
    await expect(queue.extend(agentId, 'long-turn', '00000000-0000-4000-8000-000000000000', 30)).rejects.toMatchObject({ status: 404 });
    await expect(queue.extend(agentId, 'long-turn', held!.id, 0)).rejects.toMatchObject({ status: 422 });
    await queue.complete(agentId, 'long-turn', held!.id, { outcome: 'replied' });
    await expect(queue.extend(agentId, 'long-turn', held!.id, 30)).rejects.toMatchObject({ status: 409, message: expect.stringContaining('already completed') });
  });

  it('refuses to extend a lease that another connection took over after it ran out', async () => {
    const agentId = await queueDeliveries(1, 1);
    const queue = deliveryQueue(getDb());
    const [first] = await queue.claim(agentId, 'slow', { leaseSeconds: 0.2 });
    await sleep(300);
    const [again] = await queue.claim(agentId, 'fast', { leaseSeconds: 30 });
    expect(again!.id).toBe(first!.id);
    await expect(queue.extend(agentId, 'slow', first!.id, 30)).rejects.toMatchObject({ status: 409 });
  });

  it('announces agents whose work is claimable again or was never announced, and no others', async () => {
    const [expired, fresh, held] = [await queueDeliveries(1, 1), await queueDeliveries(1, 1), await queueDeliveries(1, 1)];
    const queue = deliveryQueue(getDb());
    await queue.claim(expired, 'dead', { leaseSeconds: 0.2 });
    await queue.claim(held, 'alive', { leaseSeconds: 30 });
    await sleep(300);
    const told = async (olderThanSeconds: number) => new Set((await announceClaimableDeliveries(olderThanSeconds)).filter((id) => [expired, fresh, held].includes(id)));
    // `fresh` was queued (and announced) just now; it is told again only once it is older than the window.
    expect(await told(30)).toEqual(new Set([expired]));
    expect(await told(0)).toEqual(new Set([expired, fresh]));
  });

  it.skipIf(testDbKind !== 'postgres')(
    '10,000 deliveries, 8 concurrent connections of one agent, 2 killed mid-lease: every delivery handled exactly once (real Postgres only: PGlite is one connection)',
    { timeout: 300_000 },
    async () => {
      const agentId = await queueDeliveries(10_000, 200);
      const [{ name }] = (await getDb().query<{ name: string }>('select current_database() as name')) as [{ name: string }];
      const url = withDatabase(process.env.TEST_DATABASE_URL!, name);
      const handled = new Map<string, string[]>();
      const pools = await Promise.all(Array.from({ length: 8 }, () => openPostgres(url, { max: 1 })));
      try {
        await Promise.all(
          pools.map(async (pool, i) => {
            // Connections 0 and 1 are killed after their 5th claim, holding 10 deliveries each.
            const dies = i < 2;
            await connection(pool, agentId, `conn-${i}`, handled, { leaseSeconds: 3, dieAfterClaims: dies ? 5 : undefined });
            if (dies) await pool.close();
          }),
        );
      } finally {
        await Promise.all(pools.map((pool) => pool.close().catch(() => {})));
      }
      expect(handled.size).toBe(10_000);
      const twice = [...handled.entries()].filter(([, by]) => by.length !== 1);
      expect(twice).toEqual([]);
      expect(await statusCounts(agentId)).toEqual({ done: 10_000 });
      const [reclaimed] = await asService((tx) =>
        tx.query<{ n: number }>(`select count(*)::int as n from private.deliveries where agent_id = $1 and attempts > 1`, [agentId]),
      );
      expect(reclaimed!.n).toBe(20);
      // Every connection took part (the killed ones completed 4 batches before dying).
      expect(new Set([...handled.values()].flat()).size).toBe(8);
    },
  );
});
