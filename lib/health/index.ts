import { getDb } from '@/lib/db';

export interface DatabaseHealth {
  ok: boolean;
  engine: 'pglite' | 'postgres';
  latencyMs: number;
  migrations: number;
  error?: string;
}

/** One round trip to the database and the count of applied migrations. */
export async function checkDatabase(): Promise<DatabaseHealth> {
  const started = performance.now();
  try {
    const db = await getDb();
    const [row] = await db.query<{ n: number }>('select count(*)::int as n from private.schema_migrations');
    return { ok: true, engine: db.kind, latencyMs: Math.round(performance.now() - started), migrations: row!.n };
  } catch (error) {
    return { ok: false, engine: 'postgres', latencyMs: Math.round(performance.now() - started), migrations: 0, error: (error as Error).message };
  }
}
