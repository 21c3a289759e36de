import { beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asService, elevated, withUser, type SessionUser, type Tx } from '@/lib/db';
import { setupTestDatabase } from './db';
import { createRlsWorld, type RlsWorld, type WorkspaceDataSeeder } from './rls-fixture';
import { writeRules, type InsertRule, type Writer } from './rls-write-rules';

const workspaceDataSeeders = Object.values(
  import.meta.glob<{ default: WorkspaceDataSeeder }>('./rls-seeders/*.ts', { eager: true }),
).map((module) => module.default);

setupTestDatabase();

/** Tables scoped by something other than `workspace_id`. */
const scopeColumn: Record<string, string> = { workspaces: 'id', profiles: 'user_id', onboarding: 'user_id', push_subscriptions: 'user_id' };
/** Tables whose rows belong to a person, not a workspace: their fixture rows are member A's and owner B's. */
const PERSON_TABLES = new Set(['profiles', 'onboarding', 'push_subscriptions']);

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
      const ids = PERSON_TABLES.has(name) ? [world.memberA.id, world.ownerB.id] : [world.a.id, world.b.id];
      for (const id of ids) expect(await serviceCount(name, [id]), `${name} has no fixture rows for ${id}`).toBeGreaterThan(0);
    }
  });

  it('lets a member read every row of their workspace and none of another', async () => {
    for (const { name } of tables) {
      if (PERSON_TABLES.has(name)) continue;
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
      const targets = PERSON_TABLES.has(name) ? [world.memberA.id, world.ownerB.id] : [world.a.id, world.b.id];
      const seen = await scopedIds(world.stranger, name);
      expect(seen.filter((id) => targets.includes(id)), `stranger reads ${name}`).toEqual([]);
      const anon = await rowsOrDenied(() => asAnon((tx) => tx.query(`select 1 from public.${name} limit 1`)));
      expect(anon, `anon reads ${name}`).toEqual([]);
    }
  });

  it('lets a stranger change or delete nothing of another workspace', async () => {
    for (const { name, scope } of tables) {
      const targets = PERSON_TABLES.has(name) ? [world.memberA.id, world.ownerB.id] : [world.a.id, world.b.id];
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

/** A refusal by a row-level security policy, not by a grant, a constraint or a trigger. */
const refusedByPolicy = (error: unknown) =>
  (error as { code?: string }).code === '42501' && /row-level security/.test((error as Error).message);

const outcomeOf = (error: unknown) => (refusedByPolicy(error) ? 'refused' : `failed: ${(error as Error).message}`);

/** Carries an attempt's outcome out of its transaction, rolling it back: every attempt starts from the same seeded rows. */
class RolledBack extends Error {}

/** Runs `attempt` as `user`, then rolls back: what `attempt` reports, 'refused' by a policy, or why it failed. */
const rolledBack = (user: SessionUser, attempt: (tx: Tx) => Promise<string>) =>
  withUser(user, async (tx) => {
    throw new RolledBack(await attempt(tx));
  }).catch((error: unknown) => (error instanceof RolledBack ? error.message : outcomeOf(error)));

describe('who may insert and update, table by table (test/rls-write-rules.ts)', () => {
  /** One seeded row of each workspace-scoped table in workspace A, for the rules' references. */
  const seeded: Record<string, Record<string, unknown>> = {};

  beforeAll(async () => {
    await asService(async (tx) => {
      for (const { name, scope } of tables.filter((t) => t.scope === 'workspace_id')) {
        const [row] = await tx.query<{ row: Record<string, unknown> }>(`select to_jsonb(t) as row from public.${name} t where ${scope} = $1 limit 1`, [world.a.id]);
        if (row) seeded[name] = row.row; // a table without fixture rows fails its own test above
      }
    });
  });

  /** Those whose attempt must be refused and those whose attempt must go through, under `who`. */
  function partition(who: Writer) {
    const people: [string, SessionUser][] = [
      ['a stranger', world.stranger],
      ['a member', world.memberA],
      ['an admin', world.adminA],
      ['the owner', world.ownerA],
    ];
    const firstAllowed = who === 'author' ? 3 : ['member', 'admin', 'owner'].indexOf(who) + 1;
    return { refused: people.slice(0, firstAllowed), allowed: people.slice(firstAllowed) };
  }

  /** Inserts the rule's row as `user`: 'inserted' (then rolled back), 'refused' by a policy, or why it failed. */
  async function insertAs(user: SessionUser, table: string, rule: InsertRule) {
    const [profile] = await asService((tx) =>
      tx.query<{ name: string }>(`select coalesce(nullif(display_name, ''), split_part(email, '@', 1)) as name from public.profiles where user_id = $1`, [user.id]),
    );
    const values = rule.row({ world, user, name: profile!.name, seeded });
    const columns = Object.keys(values);
    const insert = `insert into public.${table} (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
    const count = (tx: Tx) => tx.query<{ n: number }>(`select count(*)::int as n from public.${table}`).then(([r]) => r!.n);
    return rolledBack(user, async (tx) => {
      if (rule.replacesSeeded) await elevated(tx, (service) => service.query(`delete from public.${table} where workspace_id = $1`, [world.a.id]));
      const before = await elevated(tx, count);
      await tx.query(insert, Object.values(values));
      return (await elevated(tx, count)) === before + 1 ? 'inserted' : 'went through but added no row';
    });
  }

  it('has a rule for every table that authenticated users may insert into or update, by a grant or a policy', async () => {
    const writable = await asService((tx) =>
      tx.query<{ table_name: string; command: 'INSERT' | 'UPDATE' }>(
        `select table_name, privilege_type as command from information_schema.column_privileges
          where table_schema = 'public' and grantee in ('authenticated', 'PUBLIC') and privilege_type in ('INSERT', 'UPDATE')
         union
         select p.tablename, command from pg_policies p,
                unnest(case p.cmd when 'ALL' then array['INSERT', 'UPDATE'] else array[p.cmd::text] end) as command
          where p.schemaname = 'public' and p.cmd in ('INSERT', 'UPDATE', 'ALL')
         order by 1, 2`,
      ),
    );
    expect(writable.length).toBeGreaterThan(0);
    for (const { table_name: table, command } of writable) {
      const rules = writeRules[table];
      const covered = command === 'INSERT' ? (rules?.insert ?? []).length > 0 : rules?.update !== undefined;
      expect(
        covered,
        `authenticated users may ${command} public.${table}, but test/rls-write-rules.ts has no ${command.toLowerCase()} rule for it: ` +
          `add who may do it and ${command === 'INSERT' ? 'a row to insert' : 'a SET clause that changes its rows'}`,
      ).toBe(true);
    }
  });

  it('refuses each insert from everyone below the role its rule names, a stranger to the workspace first; that role and those above may', async () => {
    for (const [table, { insert = [] }] of Object.entries(writeRules)) {
      for (const rule of insert) {
        const { refused, allowed } = partition(rule.who);
        for (const [who, user] of refused) expect(await insertAs(user, table, rule), `${who} inserting into ${table}`).toBe('refused');
        for (const [who, user] of allowed) expect(await insertAs(user, table, rule), `${who} inserting into ${table}`).toBe('inserted');
      }
    }
  });

  it('refuses each update from everyone below the role its rule names, the rows unchanged when read back as the service role; that role and those above may', async () => {
    for (const [table, { update: rule }] of Object.entries(writeRules)) {
      if (!rule) continue;
      const [where, params] = rule.where?.(world) ?? ['workspace_id = $1', [world.a.id]];
      const update = `update public.${table} set ${rule.set} where ${where}`;
      const rows = (tx: Tx) =>
        tx
          .query<{ rows: string }>(`select coalesce(json_agg(t order by t::text), '[]')::text as rows from public.${table} t where ${where}`, params)
          .then(([r]) => r!.rows);
      const before = await asService(rows);
      expect(before, `${table}: no seeded rows for its update rule to change`).not.toBe('[]');
      const { refused, allowed } = partition(rule.who);
      for (const [who, user] of refused) {
        // Committed, then read back: a policy refuses an update by matching no row or, on its WITH CHECK, by an error.
        const outcome = await withUser(user, (tx) => tx.query(update, params)).then(() => 'matched no row', outcomeOf);
        expect(outcome, `${who} updating ${table}`).not.toMatch(/^failed/);
        expect(await asService(rows), `${who} changed ${table}`).toBe(before);
      }
      for (const [who, user] of allowed) {
        const outcome = await rolledBack(user, async (tx) => {
          await tx.query(update, params);
          return (await elevated(tx, rows)) === before ? 'changed nothing' : 'changed';
        });
        expect(outcome, `${who} updating ${table}`).toBe('changed');
      }
    }
  });
});
