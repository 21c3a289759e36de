import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate, openPglite, openPostgres } from '@/lib/db';

/**
 * Migrates once per run: a PGlite snapshot that each test file loads, and (with TEST_DATABASE_URL)
 * a template database that each test file copies. Every database this run makes, it drops.
 */
export default async function setup(project: TestProject) {
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const kind = project.config.env?.TEST_DB_KIND ?? 'pglite';

  if (kind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('the postgres test project needs TEST_DATABASE_URL');
    const template = `mv_tpl_${runId}`;
    const admin = await openPostgres(url, { max: 1 });
    await admin.query(`create database ${template}`);
    const db = await openPostgres(withDatabase(url, template), { max: 1 });
    await migrate(db);
    await db.close();
    await admin.close();
    project.provide('pgTemplate', template);
    project.provide('runId', runId);
    return async () => {
      const cleanup = await openPostgres(url, { max: 1 });
      const leftovers = await cleanup.query<{ datname: string }>(
        `select datname from pg_database where datname like $1 or datname = $2`,
        [`mv_t_${runId}_%`, template],
      );
      for (const { datname } of leftovers) await cleanup.query(`drop database if exists ${datname} with (force)`);
      await cleanup.close();
    };
  }

  const dir = await mkdtemp(path.join(os.tmpdir(), 'mv-pglite-'));
  const db = await openPglite(undefined);
  await migrate(db);
  const snapshot = path.join(dir, 'migrated.tar.gz');
  await writeFile(snapshot, Buffer.from(await (await db.dump()).arrayBuffer()));
  await db.close();
  project.provide('pgliteSnapshot', snapshot);
  project.provide('runId', runId);
  return async () => rm(dir, { recursive: true, force: true });
}

export function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    pgTemplate: string;
    runId: string;
  }
}
