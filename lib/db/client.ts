import 'server-only';
import { mkdir } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import type { Sql } from 'postgres';

export type Row = Record<string, unknown>;

/** What code inside a transaction sees. Parameters are positional: `$1`, `$2`, … */
export interface Tx {
  query<T = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations, seeds). */
  exec(script: string): Promise<void>;
}

export interface Database extends Tx {
  readonly kind: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

// int8 and numeric come back as JS numbers in both drivers: counts, token totals and money fit.
const toNumber = (value: string) => Number(value);

/**
 * postgres.js refuses an undefined parameter (UNDEFINED_VALUE) where PGlite quietly sends null, so a
 * missing value failed on Postgres only. Both refuse it now, and the embedded test pass finds it too.
 */
function definedParams(params: readonly unknown[] | undefined): unknown[] | undefined {
  const at = params?.indexOf(undefined) ?? -1;
  if (at >= 0) throw Object.assign(new Error(`UNDEFINED_VALUE: parameter $${at + 1} is undefined`), { code: 'UNDEFINED_VALUE' });
  return params as unknown[] | undefined;
}

export interface PgliteDatabase extends Database {
  /** A gzipped copy of the data directory (test snapshots). */
  dump(): Promise<Blob>;
}

export async function openPglite(dataDir: string | undefined, loadDataDir?: Blob): Promise<PgliteDatabase> {
  const { PGlite } = await import('@electric-sql/pglite');
  // A fresh clone has no .data/ yet, and PGlite creates only the last directory of the path.
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const pg: PGlite = await PGlite.create({
    dataDir,
    loadDataDir,
    parsers: { 20: toNumber, 1700: toNumber },
    // The default 16 MB heap overflows on seeding and benchmarks.
    initialMemory: 256 * 1024 * 1024,
  });
  return {
    kind: 'pglite',
    async query<T>(text: string, params?: readonly unknown[]) {
      return (await pg.query<T>(text, definedParams(params))).rows;
    },
    transaction(fn) {
      return pg.transaction((tx) =>
        fn({
          query: async <T>(text: string, params?: readonly unknown[]) => (await tx.query<T>(text, definedParams(params))).rows,
          exec: async (script) => {
            await tx.exec(script);
          },
        }),
      );
    },
    async exec(script) {
      await pg.exec(script);
    },
    async listen(channel, onMessage) {
      const unlisten = await pg.listen(channel, onMessage);
      return unlisten;
    },
    async close() {
      await pg.close();
    },
    async dump() {
      return (await pg.dumpDataDir('gzip')) as Blob;
    },
  };
}

export async function openPostgres(url: string, options: { max?: number } = {}): Promise<Database> {
  const { default: postgres } = await import('postgres');
  const sql: Sql = postgres(url, {
    max: options.max ?? 10,
    // Supabase's transaction pooler cannot keep prepared statements between requests.
    prepare: false,
    onnotice: () => {},
    types: {
      bigint: { to: 20, from: [20], serialize: (v: number) => String(v), parse: toNumber },
      numeric: { to: 1700, from: [1700], serialize: (v: number) => String(v), parse: toNumber },
      // JSON parameters arrive already serialized (as PGlite expects them); don't encode them twice.
      jsonb: {
        to: 3802,
        from: [114, 3802],
        serialize: (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v)),
        parse: (v: string) => JSON.parse(v),
      },
    },
  });
  const run = async <T>(client: Pick<Sql, 'unsafe'>, text: string, params?: readonly unknown[]) =>
    (await client.unsafe(text, (params ?? []) as never[])) as unknown as T[];
  return {
    kind: 'postgres',
    query: (text, params) => run(sql, text, params),
    transaction<T>(fn: (tx: Tx) => Promise<T>) {
      return sql.begin((tx) =>
        fn({
          query: (text, params) => run(tx, text, params),
          exec: async (script) => {
            await tx.unsafe(script).simple();
          },
        }),
      ) as Promise<T>;
    },
    async exec(script) {
      await sql.unsafe(script).simple();
    },
    async listen(channel, onMessage) {
      const { unlisten } = await sql.listen(channel, onMessage);
      return unlisten;
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
