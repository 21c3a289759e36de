import { openPglite, openPostgres, type Database } from '@/lib/db';

/**
 * The database a benchmark runs on: embedded PGlite by default; with BENCH_DATABASE_URL, a throwaway
 * database on that server (`url` is its address, for benchmarks that open more connections), dropped
 * by `drop`.
 */
export async function openBenchDatabase(): Promise<{ db: Database; url?: string; drop: () => Promise<void> }> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) return { db: await openPglite(undefined), drop: async () => {} };
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
