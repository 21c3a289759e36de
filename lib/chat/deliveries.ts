import { ApiError, conflict, isUuid, notFound } from '@/lib/api';
import { asService, getDb, type Database, type Tx } from '@/lib/db';
import { claim, finish, leaseFree, renew, type Queue } from '@/lib/queue';
import { publish } from '@/lib/realtime';
import type { ConversationKind, DeliveryOutcome, MessageAuthorKind } from './kinds';
import type { Turn } from './turns';

/**
 * The deliveries queue: one row per (message, agent) that should react. Every reader claims with the
 * same statement; a reconnecting connection runs it too, so "live" and "catching up" are one path.
 */

export interface ClaimOptions {
  /** At most this many deliveries (1–100). */
  limit?: number;
  /** How long the claim holds before another connection may take the delivery (seconds, > 0). */
  leaseSeconds?: number;
  /**
   * The process running the connection, when it is one of ours (a hosted agent's: its host token names
   * the process that issued it). Its leases are freed as soon as that process is known dead.
   */
  workerId?: string | null;
}

export interface ClaimedDelivery {
  id: string;
  workspaceId: string;
  conversationId: string;
  conversationKind: ConversationKind;
  conversationName: string | null;
  turn: number;
  attempts: number;
  leaseExpiresAt: Date;
  message: {
    id: string;
    seq: number;
    authorKind: MessageAuthorKind;
    authorId: string | null;
    authorName: string;
    body: string;
    mentions: unknown[];
    /** Structured extras, e.g. `cardEvent`: the card button a person clicked (lib/cards). */
    payload: Record<string, unknown>;
    createdAt: Date;
  };
}

export interface CompleteOptions {
  /** 'replied': the agent answered, later turns of the message are dropped. 'passed': the next turn runs. */
  outcome: DeliveryOutcome;
  /** The agent is done in this conversation: agents' messages stop waking it until a person writes. */
  done?: boolean;
}

// The deliveries queue for the one lease primitive (lib/queue). Oldest first, and one message at a time
// per conversation: a row is claimable only while no earlier row of the same agent and conversation is
// still pending or claimed (a lease that ran out included — that earlier row is claimable itself), so an
// agent answers a conversation in order even across several connections. The claim hands the agent
// the message and conversation with the delivery.
const deliveries: Queue = {
  table: 'private.deliveries',
  idType: 'uuid',
  ready: (t) => `${t}.status = 'pending'`,
  leased: (t) => `${t}.status = 'claimed'`,
  scope: (t, at) => `${t}.agent_id = ${at.scope}::uuid`,
  order: (t) => `${t}.seq`,
  inOrder: { by: ['agent_id', 'conversation_id'], seq: 'seq' },
  attempts: {},
  onClaim: () => `status = 'claimed', claimed_at = now()`,
  returning: 'r.id, r.seq, r.workspace_id, r.conversation_id, r.message_id, r.turn, r.attempts, r.lease_expires_at',
  view: (rows) => `
    select k.exhausted, k.id, k.workspace_id, k.conversation_id, c.kind as conversation_kind, c.name as conversation_name,
           k.turn, k.attempts, k.lease_expires_at,
           m.id as message_id, m.seq as message_seq, m.author_kind, coalesce(m.author_user_id, m.author_agent_id) as author_id,
           m.author_name, m.body, m.mentions, m.payload, m.created_at
      from ${rows} k
      join public.messages m on m.id = k.message_id
      join public.conversations c on c.id = k.conversation_id
     order by k.seq`,
};

interface ClaimRow {
  id: string;
  workspace_id: string;
  conversation_id: string;
  conversation_kind: ClaimedDelivery['conversationKind'];
  conversation_name: string | null;
  turn: number;
  attempts: number;
  lease_expires_at: Date;
  message_id: string;
  message_seq: number;
  author_kind: MessageAuthorKind;
  author_id: string | null;
  author_name: string;
  body: string;
  mentions: unknown[];
  payload: Record<string, unknown>;
  created_at: Date;
}

const toClaimed = (r: ClaimRow): ClaimedDelivery => ({
  id: r.id,
  workspaceId: r.workspace_id,
  conversationId: r.conversation_id,
  conversationKind: r.conversation_kind,
  conversationName: r.conversation_name,
  turn: r.turn,
  attempts: r.attempts,
  leaseExpiresAt: r.lease_expires_at,
  message: {
    id: r.message_id,
    seq: r.message_seq,
    authorKind: r.author_kind,
    authorId: r.author_id,
    authorName: r.author_name,
    body: r.body,
    mentions: r.mentions,
    payload: r.payload,
    createdAt: r.created_at,
  },
});

/**
 * Claim, extend and complete against a given database: the app passes its own; tests and
 * `bench/claims` pass pools of their own to act as separate connections.
 */
export function deliveryQueue(db: Pick<Database, 'query' | 'transaction'>) {
  return {
    async claim(agentId: string, connectionId: string, { limit = 10, leaseSeconds = 60, workerId = null }: ClaimOptions = {}): Promise<ClaimedDelivery[]> {
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new ApiError('validation_failed', 'api.deliveries.limit');
      checkLease(leaseSeconds);
      const rows = await claim<ClaimRow>(db, deliveries, { owner: connectionId, worker: workerId, leaseSeconds, limit, scope: agentId });
      return rows.map(toClaimed);
    },
    complete(agentId: string, connectionId: string, deliveryId: string, options: CompleteOptions): Promise<void> {
      return db.transaction((tx) => completeIn(tx, agentId, connectionId, deliveryId, options));
    },
    /**
     * Moves the lease of a delivery this connection holds to `leaseSeconds` from now, so a long turn
     * keeps it. Only the holder may: once another connection has claimed it, the answer is 409. (A
     * lease that ran out but was not claimed again is still this connection's, as for completing.)
     * The row lock orders it against a concurrent claim: whichever commits first decides.
     */
    async extend(agentId: string, connectionId: string, deliveryId: string, leaseSeconds: number): Promise<{ id: string; leaseExpiresAt: Date }> {
      checkLease(leaseSeconds);
      const [row] = isUuid(deliveryId) ? await renew(db, deliveries, { owner: connectionId, ids: [deliveryId], leaseSeconds, scope: agentId }) : [];
      if (!row) return refuseNotHeld(db, agentId, deliveryId);
      return { id: deliveryId, leaseExpiresAt: row.lease_expires_at };
    },
  };
}

function checkLease(leaseSeconds: number) {
  if (!(leaseSeconds > 0 && leaseSeconds <= 3600)) throw new ApiError('validation_failed', 'api.deliveries.leaseSeconds');
}

/** Why a connection may not act on a delivery: it does not exist, is finished, or is another connection's. */
async function refuseNotHeld(db: Pick<Database, 'query'>, agentId: string, deliveryId: string): Promise<never> {
  const [current] = isUuid(deliveryId)
    ? await db.query<{ status: string }>(`select status from private.deliveries where id = $1 and agent_id = $2`, [deliveryId, agentId])
    : [];
  if (!current) throw notFound('delivery');
  if (current.status === 'done') throw conflict('api.deliveries.alreadyCompleted');
  throw conflict('api.deliveries.notHeld');
}

export async function claimDeliveries(agentId: string, connectionId: string, options?: ClaimOptions): Promise<ClaimedDelivery[]> {
  return deliveryQueue(await getDb()).claim(agentId, connectionId, options);
}

export async function completeDelivery(agentId: string, connectionId: string, deliveryId: string, options: CompleteOptions): Promise<void> {
  return deliveryQueue(await getDb()).complete(agentId, connectionId, deliveryId, options);
}

export async function extendLease(agentId: string, connectionId: string, deliveryId: string, leaseSeconds: number): Promise<{ id: string; leaseExpiresAt: Date }> {
  return deliveryQueue(await getDb()).extend(agentId, connectionId, deliveryId, leaseSeconds);
}

/**
 * Completes a delivery the connection holds, inside `tx` (an agent's reply completes its delivery
 * in the reply's own transaction). Refused when the lease was lost: another connection claimed the
 * delivery after this one's lease expired, and only that one may complete it.
 */
export async function completeIn(tx: Tx, agentId: string, connectionId: string, deliveryId: string, { outcome, done }: CompleteOptions) {
  const [row] = isUuid(deliveryId)
    ? await finish<{ outcome: DeliveryOutcome }, { message_id: string; conversation_id: string }>(tx, deliveries, {
        owner: connectionId,
        scope: agentId,
        rows: [{ id: deliveryId, outcome }],
        types: { outcome: 'text' },
        set: (_r, v) => `status = 'done', outcome = ${v}.outcome, handled_at = now()`,
        returning: 'r.message_id, r.conversation_id',
      })
    : [];
  if (!row) return refuseNotHeld(tx, agentId, deliveryId);
  if (outcome === 'passed') {
    // The next turn of the same message gets its chance.
    const promoted = await tx.query<{ agent_id: string }>(
      `update private.deliveries set status = 'pending'
        where message_id = $1 and status = 'waiting'
          and turn = (select min(turn) from private.deliveries where message_id = $1 and status = 'waiting')
        returning agent_id`,
      [row.message_id],
    );
    for (const p of promoted) await publish(tx, { type: 'deliveries', agentId: p.agent_id });
  } else {
    await tx.query(`update private.deliveries set status = 'skipped' where message_id = $1 and status = 'waiting'`, [row.message_id]);
  }
  if (done) {
    await tx.query(`update public.conversation_members set done_at = now() where conversation_id = $1 and agent_id = $2`, [row.conversation_id, agentId]);
  }
}

/** Queues a message for the agents that should react; turn 0 is claimable at once and announced. */
export async function enqueueDeliveries(
  tx: Tx,
  message: { id: string; workspaceId: string; conversationId: string },
  turns: Turn[],
): Promise<void> {
  if (turns.length === 0) return;
  await tx.query(
    `insert into private.deliveries (workspace_id, agent_id, conversation_id, message_id, turn, status)
     select $1, t.agent_id, $2, $3, t.turn, case when t.turn = 0 then 'pending' else 'waiting' end
       from unnest($4::uuid[], $5::int[]) as t (agent_id, turn)`,
    [message.workspaceId, message.conversationId, message.id, turns.map((t) => t.agentId), turns.map((t) => t.turn)],
  );
  for (const t of turns) if (t.turn === 0) await publish(tx, { type: 'deliveries', agentId: t.agentId });
}

/** Drops what is still queued for a message or conversation that no longer wants answers. */
export async function dropQueued(tx: Tx, where: { messageId: string } | { conversationIds: string[] }): Promise<void> {
  if ('messageId' in where) {
    await tx.query(`update private.deliveries set status = 'skipped' where message_id = $1 and status in ('pending', 'waiting')`, [where.messageId]);
  } else {
    await tx.query(`update private.deliveries set status = 'skipped' where conversation_id = any($1::uuid[]) and status in ('pending', 'waiting')`, [
      where.conversationIds,
    ]);
  }
}

/**
 * Announces work that is claimable but that no connection may have been told about: leases that ran
 * out or whose process died (their connection died mid-turn, and a live connection of the agent claims only when told) and
 * pending deliveries older than `olderThanSeconds` (their announcement was lost, say while a listener
 * reconnected). Each agent with such work gets one `deliveries` event; its connections then claim as
 * usual. Background work (a cron calls it); returns the agents told.
 */
export async function announceClaimableDeliveries(olderThanSeconds = 30): Promise<string[]> {
  return asService(async (tx) => {
    const rows = await tx.query<{ agent_id: string }>(
      `select distinct d.agent_id from private.deliveries d
        where (d.status = 'claimed' and ${leaseFree('d')})
           or (d.status = 'pending' and d.created_at < now() - make_interval(secs => $1))`,
      [olderThanSeconds],
    );
    for (const r of rows) await publish(tx, { type: 'deliveries', agentId: r.agent_id });
    return rows.map((r) => r.agent_id);
  });
}
