import { describe, expect, it } from 'vitest';
import { migrate } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';

const db = setupTestDatabase();

describe('migrations', () => {
  it('records every migration and applies nothing twice', async () => {
    const report = await migrate(db());
    expect(report.applied).toEqual([]);
    const rows = await db().query<{ name: string }>('select name from private.schema_migrations order by name');
    expect(rows.map((r) => r.name)).toContain('20261130000000_foundation.sql');
  });

  it('creates the Supabase-shaped auth surface', async () => {
    const [row] = await db().query<{ uid: string | null }>(
      `select set_config('request.jwt.claims', '{"sub":"6f0c2a1e-3f7a-4a59-9a55-0c3b2f1d7e11"}', true), auth.uid() as uid`,
    );
    expect(row?.uid).toBe('6f0c2a1e-3f7a-4a59-9a55-0c3b2f1d7e11');
  });
});
