import { describe, expect, it } from 'vitest';
import { asService, elevated, withUser } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';

setupTestDatabase();

const someone = { id: '6f0c2a1e-3f7a-4a59-9a55-0c3b2f1d7e11', email: 'someone@example.test' };

describe('database layer', () => {
  it('stores a JSON parameter as the value it encodes, on both engines', async () => {
    const [row] = await asService((tx) =>
      tx.query<{ kind: string; value: unknown; n: number }>(`select jsonb_typeof($1::jsonb) as kind, $1::jsonb as value, 2::int8 as n`, [
        JSON.stringify({ a: [1, 2] }),
      ]),
    );
    expect(row).toEqual({ kind: 'object', value: { a: [1, 2] }, n: 2 });
  });

  it('runs withUser as authenticated with the claims set, and elevated returns to it', async () => {
    const roles = await withUser(someone, async (tx) => {
      const [before] = await tx.query<{ role: string; uid: string }>(`select current_user as role, auth.uid()::text as uid`);
      const inside = await elevated(tx, async (service) => (await service.query<{ role: string }>('select current_user as role'))[0]!.role);
      const [after] = await tx.query<{ role: string }>('select current_user as role');
      return { before, inside, after: after!.role };
    });
    expect(roles.before).toEqual({ role: 'authenticated', uid: someone.id });
    expect(roles.inside).not.toBe('authenticated');
    expect(roles.after).toBe('authenticated');
  });

  it('returns to the user’s role when the elevated part throws and the caller goes on', async () => {
    const role = await withUser(someone, async (tx) => {
      await elevated(tx, async () => {
        throw new Error('refused before any write');
      }).catch(() => undefined);
      return (await tx.query<{ role: string }>('select current_user as role'))[0]!.role;
    });
    expect(role).toBe('authenticated');
  });

  it('refuses an undefined parameter on both engines, as postgres.js does', async () => {
    await expect(asService((tx) => tx.query('select $1::text as v', [undefined]))).rejects.toMatchObject({ code: 'UNDEFINED_VALUE' });
    expect(await asService((tx) => tx.query('select $1::text as v', [null]))).toEqual([{ v: null }]);
  });

  it('rolls back everything a failed transaction wrote', async () => {
    await expect(
      asService(async (tx) => {
        await tx.query(`insert into private.instance_settings (key, value) values ('rollback-probe', 'x')`);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const rows = await asService((tx) => tx.query(`select 1 from private.instance_settings where key = 'rollback-probe'`));
    expect(rows).toEqual([]);
  });
});
