import type { Database, Tx } from '@/lib/db';

/**
 * What a queue is, given as a value: the table, what makes a row claimable, the ordering rule, the
 * attempt cap. SQL fragments are functions of a row alias (and of the claim's `now` and `scope`
 * parameters), so one definition serves the claim, the counts inside it and the sweeps around it.
 */
export interface Queue {
  /** Schema-qualified. Its rows carry `id`, `lease_owner`, `lease_worker`, `lease_expires_at` (and `attempts` when counted). */
  table: string;
  /** The type of `id`, for the arrays and records the batched statements pass. */
  idType: 'uuid' | 'bigint';
  /** Rows waiting for a claim. */
  ready: Fragment;
  /** Rows under a lease (what a claim makes of them). Claimable again once the lease ran out or its worker is dead. */
  leased: Fragment;
  /** The rows one caller may take, from its `scope` value (an agent, a workspace, a list of functions). */
  scope?: Fragment;
  /** Claim order, oldest first. */
  order: (t: string) => string;
  /**
   * One at a time per group, in `seq` order: a row is claimable only while no earlier row of its group
   * (same values of `by`) is ready or leased.
   */
  inOrder?: { by: readonly string[]; seq: string };
  /**
   * At most `limit` leased rows per group at once (null or no limit: unbounded); such queues claim one
   * row per transaction. Two claimers must not both take the last slot, so the count is made again under
   * the group's advisory lock after the claim, and a claim over the limit rolls back and looks again.
   * When a claim's scope is one group (`scopeIsGroup`: a workspace's topic requests), claims of a scope
   * take turns on that lock before claiming instead, so none skips the oldest row while another claimer
   * holds it only to roll back: strict order within the scope.
   */
  concurrency?: { by: readonly string[]; limit: Fragment; scopeIsGroup?: boolean };
  /**
   * Claims are counted in `attempts`. A row claimed `max` times is not handed out again: the claim that
   * finds it applies `giveUp` (its workers kept dying on it) and returns it flagged `exhausted`.
   */
  attempts?: { max?: number; giveUp?: (r: string) => string };
  /** What a claim sets besides the lease (a status, a first-claimed time); `''` for nothing. */
  onClaim: Fragment;
  /** The claim's columns, over the claimed row `r`. */
  returning: string;
  /** Optional outer query over the claimed rows (`rows`), e.g. joining what a claimer needs with them; it keeps their `exhausted`. */
  view?: (rows: string) => string;
}

/** A SQL fragment over row alias `t`; `at.now` is the claim's clock, `at.scope` the caller's scope value. */
export type Fragment = (t: string, at: Params) => string;

export interface Params {
  readonly now: string;
  readonly scope: string;
}

export interface ClaimOptions {
  /** Who may renew and finish what is claimed: a worker, a run, a connection. */
  owner: string;
  /** The registered process holding the lease (lib/queue workers); null: the lease only runs out. */
  worker: string | null;
  leaseSeconds: number;
  /** At most this many rows (default 1). */
  limit?: number;
  /** The claim's clock, for callers that keep their own (the executor's tests move it); default the database's. */
  now?: Date;
  scope?: unknown;
  /**
   * Rows this owner is done with, finished in the same statement before the claim: a worker going from
   * one batch to the next pays one round trip and one commit. Rows it no longer holds are left alone,
   * without saying which: use `finish` where a lost lease must be known (a 409). Not for queues with a
   * concurrency limit, which claim one row per transaction.
   */
  finishing?: Omit<FinishOptions<Record<string, unknown>>, 'owner' | 'returning' | 'scope'>;
}

type Queryable = Pick<Tx, 'query'>;

/** Positional parameters numbered as the statement uses them (Postgres refuses ones it cannot type). */
class Statement implements Params {
  readonly values: unknown[] = [];
  private readonly slots = new Map<string, string>();
  constructor(private readonly given: { now?: Date; scope?: unknown }) {}

  param(key: string, value: unknown): string {
    let slot = this.slots.get(key);
    if (!slot) {
      this.values.push(value);
      slot = `$${this.values.length}`;
      this.slots.set(key, slot);
    }
    return slot;
  }

  get now(): string {
    return this.given.now ? `${this.param('now', this.given.now)}::timestamptz` : 'now()';
  }

  get scope(): string {
    return this.param('scope', this.given.scope ?? null);
  }
}

/**
 * Free to claim again although leased: the lease ran out, or the process holding it is dead (its
 * heartbeat stopped, it stopped cleanly, or its successor on the same install said so).
 */
export function leaseFree(t: string, at: Pick<Params, 'now'> = { now: 'now()' }): string {
  return `(${t}.lease_expires_at is null or ${t}.lease_expires_at <= ${at.now}
    or (${t}.lease_worker is not null and not exists (
          select 1 from private.queue_workers lw where lw.id = ${t}.lease_worker and lw.alive_until > now())))`;
}

/** Rows a claim could take now (ordering rules and groups aside): ready, or leased with the lease free. */
export function claimable(queue: Queue, t: string, at: Params = { now: 'now()', scope: 'null' }): string {
  return `((${queue.ready(t, at)}) or ((${queue.leased(t, at)}) and ${leaseFree(t, at)}))`;
}

/** Rows held under a live lease. */
export function held(queue: Queue, t: string, at: Params = { now: 'now()', scope: 'null' }): string {
  return `((${queue.leased(t, at)}) and not ${leaseFree(t, at)})`;
}

// Plain equality, so the probes use the group's index (a null key is a group of one).
const columns = (by: readonly string[], a: string, b: string) => by.map((c) => `${a}.${c} = ${b}.${c}`).join(' and ');

/** The finishing update: clears the lease of the rows `owner` still holds and applies `set`. */
function finishSql(queue: Queue, s: Statement, owner: string, options: Omit<FinishOptions<Record<string, unknown>>, 'owner'>, scope: unknown): string {
  const record = [`id ${queue.idType}`, ...Object.entries(options.types).map(([name, type]) => `${name} ${type}`)].join(', ');
  const where = ['r.id = v.id', `r.lease_owner = ${s.param('owner', owner)}`, `(${queue.leased('r', s)})`];
  if (scope !== undefined && queue.scope) where.push(queue.scope('r', s));
  const set = options.set('r', 'v');
  return `update ${queue.table} r set lease_owner = null, lease_worker = null, lease_expires_at = null${set ? `, ${set}` : ''}
       from json_to_recordset(${s.param('rows', JSON.stringify(options.rows))}::json) as v(${record})
      where ${where.join(' and ')}
      returning r.id${options.returning ? `, ${options.returning}` : ''}`;
}

function claimSql(queue: Queue, s: Statement, options: ClaimOptions, limit: number): string {
  const { owner, worker, leaseSeconds } = options;
  const t = queue.table;
  const where = [claimable(queue, 'c', s)];
  if (queue.scope) where.push(queue.scope('c', s));
  // A row being finished whose lease ran out meanwhile would look claimable: a statement must not update a row twice.
  if (options.finishing?.rows.length) where.push(`c.id <> all(${s.param('finishing', options.finishing.rows.map((r) => r.id))}::${queue.idType}[])`);
  if (queue.inOrder) {
    const { by, seq } = queue.inOrder;
    // A correlated scalar subquery: one index probe per candidate (as an anti-join the planner may scan
    // the whole group per row).
    where.push(`c.${seq} = (select min(e.${seq}) from ${t} e where ${columns(by, 'e', 'c')} and ((${queue.ready('e', s)}) or (${queue.leased('e', s)})))`);
  }
  if (queue.concurrency) {
    const { by, limit: cap } = queue.concurrency;
    where.push(`coalesce((select count(*) from ${t} o where ${columns(by, 'o', 'c')} and ${held(queue, 'o', s)}) < (${cap('c', s)}), true)`);
  }
  const max = queue.attempts?.max;
  const extra = queue.onClaim('r', s);
  const set = [
    `lease_owner = ${s.param('owner', owner)}`,
    `lease_worker = ${s.param('worker', worker)}::uuid`,
    `lease_expires_at = ${s.now} + make_interval(secs => ${s.param('lease', leaseSeconds)}::double precision)`,
    ...(queue.attempts ? ['attempts = r.attempts + 1'] : []),
    ...(extra ? [extra] : []),
  ].join(', ');
  const picked = `picked as (
    select c.id${max !== undefined ? ', c.attempts' : ''} from ${t} c
     where ${where.join('\n       and ')}
     order by ${queue.order('c')}
     limit ${s.param('limit', limit)}
     for update of c skip locked)`;
  const claimed = `claimed as (
    update ${t} r set ${set}
      from picked p where r.id = p.id${max !== undefined ? ` and p.attempts < ${max}` : ''}
    returning false as exhausted, ${queue.returning})`;
  // The rows being finished: the claim's snapshot sees them as still leased (and the `<> all` above keeps
  // out one whose lease ran out), so the claim never takes one of them.
  const finishing = options.finishing?.rows.length ? `finished as (${finishSql(queue, s, owner, options.finishing, undefined)}), ` : '';
  if (max === undefined) return `with ${finishing}${picked}, ${claimed}\n${queue.view ? queue.view('claimed') : 'select * from claimed'}`;
  const giveUp = queue.attempts?.giveUp?.('r');
  const exhausted = `exhausted as (
    update ${t} r set lease_owner = null, lease_worker = null, lease_expires_at = null${giveUp ? `, ${giveUp}` : ''}
      from picked p where r.id = p.id and p.attempts >= ${max}
    returning true as exhausted, ${queue.returning})`;
  const rows = '(select * from claimed union all select * from exhausted)';
  return `with ${finishing}${picked}, ${claimed}, ${exhausted}\n${queue.view ? queue.view(rows) : `select * from ${rows} k`}`;
}

class GroupFull extends Error {}

/**
 * The one claim: `UPDATE … FROM (SELECT … FOR UPDATE SKIP LOCKED LIMIT n) … RETURNING`, so a batch is
 * taken and leased in one statement and claimers skip each other's rows instead of waiting. Returns the
 * claimed rows, and (flagged `exhausted: true`) any row given up on the way because its attempts ran
 * out; the claim goes on past those, so up to `limit` rows still come back as claimed.
 */
export async function claim<R>(db: Pick<Database, 'query' | 'transaction'>, queue: Queue, options: ClaimOptions): Promise<Array<R & { exhausted: boolean }>> {
  const { leaseSeconds, limit = 1 } = options;
  if (!(leaseSeconds > 0)) throw new Error('leaseSeconds must be above 0');
  if (queue.concurrency && options.finishing) throw new Error('A queue with a concurrency limit finishes with finish(), not in its claim');
  const out: Array<R & { exhausted: boolean }> = [];
  let claimed = 0;
  while (claimed < limit) {
    const rows = queue.concurrency
      ? await claimWithinLimit<R>(db, queue, options)
      : await claimBatch<R>(db, queue, out.length === 0 ? options : { ...options, finishing: undefined }, limit - claimed);
    out.push(...rows);
    const got = rows.filter((row) => !row.exhausted).length;
    claimed += got;
    // A limited queue claims one row at a time until none is left; a batch that came back short has
    // taken everything claimable, unless rows given up took places in it.
    if (rows.length === 0 || (!queue.concurrency && got === rows.length)) break;
  }
  return out;
}

async function claimBatch<R>(db: Queryable, queue: Queue, options: ClaimOptions, limit: number) {
  const s = new Statement(options);
  const sql = claimSql(queue, s, options, limit);
  return db.query<R & { exhausted: boolean }>(sql, s.values);
}

/**
 * A queue with a concurrency limit claims one row per transaction, then takes its group's lock and
 * counts again: the claim's own count could not see another claimer's uncommitted claim in the same
 * group. Over the limit, the transaction rolls back and the claim looks again (it then sees the other
 * claim committed and passes the group over). A scope that is one group takes its lock first instead.
 */
async function claimWithinLimit<R>(db: Pick<Database, 'transaction'>, queue: Queue, options: ClaimOptions) {
  const { by, limit, scopeIsGroup } = queue.concurrency!;
  for (;;) {
    try {
      return await db.transaction(async (tx) => {
        if (scopeIsGroup) {
          // Claims of this scope take turns: the claim's count then sees every earlier claim, committed.
          const s = new Statement(options);
          await tx.query(`select pg_advisory_xact_lock(hashtextextended(${s.param('table', queue.table)} || ':' || ${s.scope}::text, 0))`, s.values);
          return claimBatch<R>(tx, queue, options, 1);
        }
        const rows = await claimBatch<R & { id: unknown }>(tx, queue, options, 1);
        const [row] = rows;
        if (!row || row.exhausted) return rows;
        // The lock, and the count after it in a statement of its own (its snapshot is taken once the lock
        // is held); rows without a limit take neither.
        const s = new Statement(options);
        const key = by.map((c) => `coalesce(g.${c}::text, '')`).join(` || E'\\x1f' || `);
        const [group] = await tx.query<{ cap: number | null }>(
          `select cap, case when cap is not null then pg_advisory_xact_lock(hashtextextended(${s.param('table', queue.table)} || ${key}, 0))::text end as locked
             from (select g.*, (${limit('g', s)}) as cap from ${queue.table} g where g.id = ${s.param('id', row.id)}) g`,
          s.values,
        );
        if (group!.cap === null) return rows;
        const s2 = new Statement(options);
        const [check] = await tx.query<{ over: boolean }>(
          `select (select count(*) from ${queue.table} o where ${columns(by, 'o', 'g')} and ${held(queue, 'o', s2)}) > ${s2.param('cap', group!.cap)}::integer as over
             from ${queue.table} g where g.id = ${s2.param('id', row.id)}`,
          s2.values,
        );
        if (check!.over) throw new GroupFull();
        return rows;
      });
    } catch (error) {
      if (!(error instanceof GroupFull)) throw error;
    }
  }
}

export interface RenewOptions {
  owner: string;
  ids: readonly (string | number)[];
  leaseSeconds: number;
  now?: Date;
  /** Also require the caller's scope (an agent renews only its own deliveries). */
  scope?: unknown;
}

/** Moves the leases `owner` holds on `ids` to `leaseSeconds` from now, in one statement; returns the rows renewed. */
export async function renew(db: Queryable, queue: Queue, options: RenewOptions): Promise<Array<{ id: string; lease_expires_at: Date }>> {
  if (options.ids.length === 0) return [];
  const s = new Statement(options);
  const where = [`r.id = any(${s.param('ids', options.ids)}::${queue.idType}[])`, `r.lease_owner = ${s.param('owner', options.owner)}`, `(${queue.leased('r', s)})`];
  if (options.scope !== undefined && queue.scope) where.push(queue.scope('r', s));
  return db.query(
    `update ${queue.table} r set lease_expires_at = ${s.now} + make_interval(secs => ${s.param('lease', options.leaseSeconds)}::double precision)
      where ${where.join(' and ')}
      returning r.id, r.lease_expires_at`,
    s.values,
  );
}

/** Hands leases back now: the rows are claimable at once (by this owner's successor or anyone). */
export async function release(db: Queryable, queue: Queue, options: Omit<RenewOptions, 'leaseSeconds'>): Promise<void> {
  if (options.ids.length === 0) return;
  const s = new Statement(options);
  await db.query(
    `update ${queue.table} r set lease_expires_at = ${s.now}
      where r.id = any(${s.param('ids', options.ids)}::${queue.idType}[]) and r.lease_owner = ${s.param('owner', options.owner)} and (${queue.leased('r', s)})`,
    s.values,
  );
}

export interface FinishOptions<V extends Record<string, unknown>> {
  owner: string;
  /** One entry per row: its id and the values `set` reads from `v`. */
  rows: ReadonlyArray<{ id: string | number } & V>;
  /** The SQL types of the values, e.g. `{ status: 'text', output: 'jsonb' }`. */
  types: { [K in Exclude<keyof V, 'id'>]: string };
  /** What finishing sets, over the row `r` and its values `v` (a status, a result); the lease is cleared. */
  set: (r: string, v: string) => string;
  /** Columns to return besides `id`, over `r`. */
  returning?: string;
  scope?: unknown;
}

/**
 * Finishes many leased rows in one statement (complete or fail; graphile-worker's `complete_jobs` /
 * `fail_jobs`): only rows `owner` still holds change. Returns those; an id missing from the result
 * was not this owner's any more (its lease ran out and another claimer took it) or is finished.
 */
export async function finish<V extends Record<string, unknown>, R = { id: string }>(db: Queryable, queue: Queue, options: FinishOptions<V>): Promise<R[]> {
  if (options.rows.length === 0) return [];
  const s = new Statement(options);
  return db.query<R>(finishSql(queue, s, options.owner, options as unknown as FinishOptions<Record<string, unknown>>, options.scope), s.values);
}
