import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPglite, openPostgres, type Database } from '@/lib/db';

/**
 * The database a benchmark runs on: embedded PGlite by default, in a new temporary directory, since the
 * app's embedded default keeps its data on disk (PGLITE_DIR) and an in-memory database measures
 * something no one runs; with BENCH_DATABASE_URL, a throwaway database on that server (`url` is its
 * address, for benchmarks that open more connections). `drop` removes either.
 */
export async function openBenchDatabase(): Promise<{ db: Database; url?: string; drop: () => Promise<void> }> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    const dir = await mkdtemp(path.join(tmpdir(), 'mv-bench-pglite-'));
    return { db: await openPglite(dir), drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const name = `mv_bench_${Date.now().toString(36)}`;
  const admin = await openPostgres(url, { max: 1 });
  await admin.query(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    db: await openPostgres(target.toString()),
    url: target.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.close();
    },
  };
}
