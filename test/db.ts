import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, inject } from 'vitest';
import { openPglite, openPostgres, useDatabase, type Database } from '@/lib/db';
import { withDatabase } from './global-setup';

export const testDbKind = (process.env.TEST_DB_KIND ?? 'pglite') as 'pglite' | 'postgres';

/** A fresh, migrated database of this file's own, installed as the app's database. */
export async function createTestDatabase(): Promise<Database> {
  if (testDbKind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `mv_t_${inject('runId')}_${randomBytes(4).toString('hex')}`;
    const admin = await openPostgres(url, { max: 1 });
    await admin.query(`create database ${name} template ${inject('pgTemplate')}`);
    await admin.close();
    const db = await openPostgres(withDatabase(url, name));
    const close = db.close.bind(db);
    return {
      ...db,
      async close() {
        await close();
        const cleanup = await openPostgres(url, { max: 1 });
        await cleanup.query(`drop database if exists ${name} with (force)`);
        await cleanup.close();
      },
    };
  }
  const snapshot = await readFile(inject('pgliteSnapshot'));
  return openPglite(undefined, new Blob([snapshot]));
}

/** Registers hooks that give the test file its own database; returns a getter for it. */
export function setupTestDatabase(): () => Database {
  let db: Database | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    useDatabase(db);
  });
  afterAll(async () => {
    useDatabase(undefined);
    await db?.close();
  });
  return () => {
    if (!db) throw new Error('test database not ready');
    return db;
  };
}
