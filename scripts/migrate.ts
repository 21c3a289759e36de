// The release step for real Postgres / Supabase: applies supabase/migrations in order.
import { config } from '@/lib/config';
import { getDb, migrate } from '@/lib/db';

const db = await getDb();
const report = await migrate(db);
console.log(
  report.applied.length
    ? `Applied ${report.applied.length} migration(s): ${report.applied.join(', ')}`
    : `Database is up to date (${report.skipped} migrations already applied).`,
  config().embedded ? `[embedded: ${config().PGLITE_DIR}]` : '',
);
await db.close();
