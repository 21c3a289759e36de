import 'server-only';
import { config } from '@/lib/config';
import { openPglite, openPostgres, type Database, type Tx, type Row } from './client';
import { migrate } from './migrate';

export type { Database, Tx, Row };
export { migrate, openPglite, openPostgres };

/** The identity a request acts as; becomes `request.jwt.claims` (Supabase-shaped). */
export interface SessionUser {
  id: string;
  email: string;
}

// One database per process, kept on globalThis so Next's module reloading and the
// instrumentation hook share it.
const holder = globalThis as unknown as { __multiverbeDb?: Promise<Database> };

export function getDb(): Promise<Database> {
  holder.__multiverbeDb ??= openConfigured().catch((error) => {
    holder.__multiverbeDb = undefined;
    throw error;
  });
  return holder.__multiverbeDb;
}

async function openConfigured(): Promise<Database> {
  const cfg = config();
  if (cfg.DATABASE_URL) return openPostgres(cfg.DATABASE_URL);
  const db = await openPglite(cfg.PGLITE_DIR);
  await migrate(db);
  return db;
}

/**
 * Closes this process's database, on shutdown: the embedded PGlite writes its checkpoint and shuts down
 * cleanly, so the next start needs no crash recovery; a Postgres pool ends its connections.
 */
export async function closeDb(): Promise<void> {
  const db = holder.__multiverbeDb;
  holder.__multiverbeDb = undefined;
  await (await db?.catch(() => undefined))?.close();
}

/** Tests and scripts install the database they opened themselves. */
export function useDatabase(db: Database | undefined) {
  holder.__multiverbeDb = db ? Promise.resolve(db) : undefined;
}

/**
 * Runs `fn` in one transaction as role `authenticated` with the user's JWT claims set, exactly as
 * Supabase/PostgREST does, so RLS policies decide what the user can read and write.
 */
export async function withUser<T>(user: SessionUser, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const db = await getDb();
  const claims = JSON.stringify({ sub: user.id, email: user.email, role: 'authenticated' });
  return db.transaction(async (tx) => {
    await tx.query(`select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`, [claims]);
    return fn(tx);
  });
}

/** Runs `fn` in one transaction as the database owner (RLS does not apply): trusted background work only. */
export async function asService<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  const db = await getDb();
  return db.transaction(fn);
}

/**
 * Inside a `withUser` transaction, runs `fn` with the connection's own (service) role and then
 * returns to the user's role: for the few writes that must commit atomically with the user's
 * change but that users may never make themselves (an outbox row, an event). Server code only.
 */
export async function elevated<T>(tx: Tx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const [row] = await tx.query<{ role: string }>(`select current_setting('role') as role`);
  await tx.query(`select set_config('role', 'none', true)`);
  try {
    return await fn(tx);
  } finally {
    // Also when `fn` throws and the caller goes on in the same transaction: never left as the service.
    await tx.query(`select set_config('role', $1, true)`, [row!.role]);
  }
}

/** `anon`: a request with no session. Used by tests to prove anonymous callers see nothing. */
export async function asAnon<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx.query(`select set_config('request.jwt.claims', '{"role":"anon"}', true), set_config('role', 'anon', true)`);
    return fn(tx);
  });
}
