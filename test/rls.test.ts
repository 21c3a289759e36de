import { beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asService, withUser, type SessionUser, type Tx } from '@/lib/db';
import { setupTestDatabase } from './db';
import { createRlsWorld, type RlsWorld, type WorkspaceDataSeeder } from './rls-fixture';

const workspaceDataSeeders = Object.values(
  import.meta.glob<{ default: WorkspaceDataSeeder }>('./rls-seeders/*.ts', { eager: true }),
).map((module) => module.default);

setupTestDatabase();

/** Tables scoped by something other than `workspace_id`. */
const scopeColumn: Record<string, string> = { workspaces: 'id', profiles: 'user_id' };

let world: RlsWorld;
let tables: { name: string; scope: string }[];

beforeAll(async () => {
  world = await createRlsWorld();
  await asService(async (tx) => {
    for (const seed of workspaceDataSeeders) {
      await seed(tx, world, world.a);
      await seed(tx, world, world.b);
    }
  });
  const rows = await asService((tx) =>
    tx.query<{ table_name: string; has_workspace_id: boolean }>(
      `select t.table_name,
              exists (select 1 from information_schema.columns c
                       where c.table_schema = 'public' and c.table_name = t.table_name and c.column_name = 'workspace_id') as has_workspace_id
         from information_schema.tables t
        where t.table_schema = 'public' and t.table_type = 'BASE TABLE' order by 1`,
    ),
  );
  tables = rows.map((r) => ({ name: r.table_name, scope: scopeColumn[r.table_name] ?? (r.has_workspace_id ? 'workspace_id' : '') }));
});

/** Runs `fn` and reports a permission error as "nothing visible / nothing changed". */
async function rowsOrDenied<T>(fn: () => Promise<T[]>): Promise<T[]> {
  try {
    return await fn();
  } catch (error) {
    if ((error as { code?: string }).code === '42501') return [];
    throw error;
  }
}

const scopedIds = (user: SessionUser, table: string) =>
  rowsOrDenied(() =>
    withUser(user, (tx) => tx.query<{ scope: string }>(`select ${scopeOf(table)}::text as scope from public.${table}`)),
  ).then((rows) => rows.map((r) => r.scope));

const scopeOf = (table: string) => tables.find((t) => t.name === table)!.scope;

const serviceCount = (table: string, ids: string[]) =>
  asService((tx: Tx) =>
    tx.query<{ n: number }>(`select count(*)::int as n from public.${table} where ${scopeOf(table)} = any($1::uuid[])`, [ids]),
  ).then(([r]) => r!.n);

describe('RLS on every table in the public schema', () => {
  it('finds the tables and knows how each is scoped', () => {
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['workspaces', 'workspace_members', 'workspace_invitations', 'profiles']));
    for (const table of tables) expect(table.scope, `no scope column for ${table.name}: add it to scopeColumn`).not.toBe('');
  });

  it('has RLS enabled, policies only for authenticated, and no always-true policy', async () => {
    const rows = await asService((tx) =>
      tx.query<{ relname: string; rls: boolean; policies: number; open: number; other_roles: number }>(
        `select c.relname, c.relrowsecurity as rls,
                (select count(*)::int from pg_policies p where p.schemaname = 'public' and p.tablename = c.relname) as policies,
                (select count(*)::int from pg_policies p where p.schemaname = 'public' and p.tablename = c.relname
                   and (btrim(coalesce(p.qual, '')) = 'true' or btrim(coalesce(p.with_check, '')) = 'true')) as open,
                (select count(*)::int from pg_policies p where p.schemaname = 'public' and p.tablename = c.relname
                   and p.roles <> '{authenticated}') as other_roles
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = 'r'`,
      ),
    );
    expect(rows.length).toBe(tables.length);
    for (const row of rows) {
      expect(row.rls, `RLS disabled on ${row.relname}`).toBe(true);
      expect(row.policies, `no policy on ${row.relname}`).toBeGreaterThan(0);
      expect(row.open, `always-true policy on ${row.relname}`).toBe(0);
      expect(row.other_roles, `policy on ${row.relname} not limited to authenticated`).toBe(0);
    }
  });

  it('has fixture rows in both workspaces for every table, so no check below passes vacuously', async () => {
    for (const { name } of tables) {
      const ids = name === 'profiles' ? [world.memberA.id, world.ownerB.id] : [world.a.id, world.b.id];
      for (const id of ids) expect(await serviceCount(name, [id]), `${name} has no fixture rows for ${id}`).toBeGreaterThan(0);
    }
  });

  it('lets a member read every row of their workspace and none of another', async () => {
    for (const { name } of tables) {
      if (name === 'profiles') continue;
      const seen = await scopedIds(world.memberA, name);
      const memberships = await asService((tx) =>
        tx.query<{ workspace_id: string }>('select workspace_id::text from public.workspace_members where user_id = $1', [world.memberA.id]),
      );
      const allowed = new Set(memberships.map((m) => m.workspace_id));
      if (name === 'workspace_invitations') {
        // Invitations are for admins only.
        expect(seen, 'a plain member sees invitations').toEqual([]);
        expect(await scopedIds(world.adminA, name)).toContain(world.a.id);
        continue;
      }
      expect(seen.filter((id) => !allowed.has(id)), `${name} leaks rows of another workspace`).toEqual([]);
      expect(seen.filter((id) => id === world.a.id).length, `${name}: member misses rows of their own workspace`).toBe(
        await serviceCount(name, [world.a.id]),
      );
    }
  });

  it('shows a stranger and anon nothing of either workspace', async () => {
    for (const { name } of tables) {
      const targets = name === 'profiles' ? [world.memberA.id, world.ownerB.id] : [world.a.id, world.b.id];
      const seen = await scopedIds(world.stranger, name);
      expect(seen.filter((id) => targets.includes(id)), `stranger reads ${name}`).toEqual([]);
      const anon = await rowsOrDenied(() => asAnon((tx) => tx.query(`select 1 from public.${name} limit 1`)));
      expect(anon, `anon reads ${name}`).toEqual([]);
    }
  });

  it('lets a stranger change or delete nothing of another workspace', async () => {
    for (const { name, scope } of tables) {
      const targets = name === 'profiles' ? [world.memberA.id, world.ownerB.id] : [world.a.id, world.b.id];
      const before = await serviceCount(name, targets);
      const updated = await rowsOrDenied(() =>
        withUser(world.stranger, (tx) => tx.query(`update public.${name} set ${scope} = ${scope} where ${scope} = any($1::uuid[]) returning 1`, [targets])),
      );
      const deleted = await rowsOrDenied(() =>
        withUser(world.stranger, (tx) => tx.query(`delete from public.${name} where ${scope} = any($1::uuid[]) returning 1`, [targets])),
      );
      expect(updated, `stranger updates ${name}`).toEqual([]);
      expect(deleted, `stranger deletes ${name}`).toEqual([]);
      expect(await serviceCount(name, targets)).toBe(before);
    }
  });

  it('enforces roles in the database itself: a member cannot invite, an admin cannot delete the workspace', async () => {
    const invite = withUser(world.memberA, (tx) =>
      tx.query(
        `insert into public.workspace_invitations (workspace_id, email, role, token_hash, invited_by, expires_at)
         values ($1, 'x@example.test', 'member', 'h-member', $2, now() + interval '1 day')`,
        [world.a.id, world.memberA.id],
      ),
    );
    await expect(invite).rejects.toThrow(/row-level security/);
    const deleted = await withUser(world.adminA, (tx) => tx.query('delete from public.workspaces where id = $1 returning 1', [world.a.id]));
    expect(deleted).toEqual([]);
    const promoted = await withUser(world.adminA, (tx) =>
      tx.query(`update public.workspace_members set role = 'admin' where workspace_id = $1 and user_id = $2 returning 1`, [world.a.id, world.memberA.id]),
    );
    expect(promoted).toEqual([]);
  });

  it('keeps private tables and definer functions out of reach of anon and authenticated', async () => {
    const leaks = await asService((tx) =>
      tx.query<{ what: string }>(
        `select 'table ' || c.relname as what from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'private' and c.relkind = 'r'
            and (has_table_privilege('authenticated', c.oid, 'select,insert,update,delete')
                 or has_table_privilege('anon', c.oid, 'select,insert,update,delete'))
         union all
         select 'function ' || p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname in ('public', 'private') and p.prosecdef and has_function_privilege('anon', p.oid, 'execute')`,
      ),
    );
    expect(leaks).toEqual([]);
  });

  it('has RLS enabled on the private tables too, and on auth.users where this database owns it', async () => {
    const off = await asService((tx) =>
      tx.query<{ name: string }>(
        `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.relkind = 'r' and not c.relrowsecurity
            and (n.nspname = 'private' or (n.nspname = 'auth' and c.relname = 'users' and pg_get_userbyid(c.relowner) = current_user))`,
      ),
    );
    expect(off).toEqual([]);
  });
});
