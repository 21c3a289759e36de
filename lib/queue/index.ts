/**
 * The one lease primitive every queue uses (executor runs, chat deliveries, topic requests, routine
 * runs), modelled on graphile-worker's `get_job` / `complete_jobs` / `fail_jobs`:
 *
 * - `claim` takes a batch in one statement — `UPDATE … FROM (SELECT … FOR UPDATE SKIP LOCKED LIMIT n)
 *   RETURNING …` — under a lease held by an owner (who may renew and finish it) and a worker (the process);
 * - `renew` moves many leases in one statement, `release` hands them back;
 * - `finish` completes or fails many rows in one statement, only where the owner still holds the lease;
 *   a claim may also finish the owner's previous batch in its own statement (`finishing`).
 *
 * Each queue is a `Queue` value passed to these functions: its table, what makes a row claimable, its
 * ordering rule (one at a time per group in order, or at most N per group), its attempt cap. Every queue
 * table uses the same columns: `lease_owner`, `lease_worker`, `lease_expires_at`, `attempts`.
 *
 * A lease holds while it has not run out and its worker is alive. Workers (one per process) register
 * and beat a heartbeat (`startWorker`); a process that dies frees its leases as soon as it is known
 * dead: at once when the next process of its install starts, or 10 s after its last heartbeat. A
 * worker that stops (SIGTERM) declares itself dead, which hands back everything it holds in one write.
 * Leases still run out for holders that are not workers (a laptop's agent connection) and for a live
 * process that stopped renewing one.
 */
export { claim, claimable, finish, held, leaseFree, release, renew } from './lease';
export type { ClaimOptions, FinishOptions, Fragment, Params, Queue, RenewOptions } from './lease';
export { ALIVE_MS, HEARTBEAT_MS, installOf, processWorkerId, startWorker, installProcessWorker } from './workers';
export type { QueueWorker, WorkerOptions } from './workers';
