import 'server-only';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from './client';

// Read from the working directory at run time (embedded start-up, `npm run db:migrate`), not bundled.
export const MIGRATIONS_DIR = path.join(/* turbopackIgnore: true */ process.cwd(), 'supabase', 'migrations');
const LOCK_KEY = 727_001; // any constant: serializes concurrent migrators on one database

export interface MigrationReport {
  applied: string[];
  skipped: number;
}

/**
 * Applies `supabase/migrations/*.sql` in file-name order, each in its own transaction, and records
 * it in `private.schema_migrations`. Safe to run from several processes at once.
 */
export async function migrate(db: Database, dir = MIGRATIONS_DIR): Promise<MigrationReport> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await tx.exec(`
      create schema if not exists private;
      create table if not exists private.schema_migrations (
        name text primary key,
        applied_at timestamptz not null default now()
      );`);
  });
  const report: MigrationReport = { applied: [], skipped: 0 };
  for (const name of files) {
    const script = await readFile(path.join(dir, name), 'utf8');
    const applied = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const done = await tx.query('select 1 from private.schema_migrations where name = $1', [name]);
      if (done.length > 0) return false;
      try {
        await tx.exec(script);
      } catch (error) {
        throw new Error(`Migration ${name} failed: ${(error as Error).message}`, { cause: error });
      }
      await tx.query('insert into private.schema_migrations (name) values ($1)', [name]);
      return true;
    });
    if (applied) report.applied.push(name);
    else report.skipped += 1;
  }
  return report;
}
