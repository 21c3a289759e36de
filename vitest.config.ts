import { defineConfig, type TestProjectConfiguration } from 'vitest/config';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

const shared = {
  include: ['lib/**/*.test.ts', 'inngest/**/*.test.ts', 'test/**/*.test.ts', 'components/**/*.test.ts'],
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};
// Sealed secrets (lib/secrets) use a key of this run's own, not a key file beside the working copy.
const secretsKeys = `test:${randomBytes(32).toString('base64')}`;

/**
 * The test files that open a database: a database comes only from test/db.ts, directly or through a
 * capability's test world, so a file that imports neither runs the same on either engine.
 */
function filesUsingADatabase(): string[] {
  const opensDatabase = /from '(@\/test\/db|\.\/db|[^']*test-world)'/;
  return ['lib', 'inngest', 'test', 'components']
    .flatMap((root) => readdirSync(root, { recursive: true, encoding: 'utf8' }).map((file) => `${root}/${file}`))
    .filter((file) => file.endsWith('.test.ts') && opensDatabase.test(readFileSync(file, 'utf8')));
}

// Every test runs on the embedded PGlite and, when TEST_DATABASE_URL is set, the ones that open a database
// run on real Postgres too.
const projects: TestProjectConfiguration[] = [{ extends: true, test: { ...shared, name: 'pglite', env: { TEST_DB_KIND: 'pglite', LOG_LEVEL: 'silent', SECRETS_KEYS: secretsKeys } } }];
if (process.env.TEST_DATABASE_URL) {
  projects.push({
    extends: true,
    test: { ...shared, include: filesUsingADatabase(), name: 'postgres', env: { TEST_DB_KIND: 'postgres', LOG_LEVEL: 'silent', SECRETS_KEYS: secretsKeys } },
  });
}

// `import 'server-only'` marks modules a client bundle must never contain; Next resolves it to an empty module
// in its server layers and fails a client build that reaches it. Tests run server modules in plain Node,
// where the package's default export throws, so they get the empty module too (as the node scripts do with
// `--conditions=react-server`, which would also swap React for its server build here).
export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname),
      'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js'),
    },
  },
  // Two files at a time: vitest's default on two cores is one, and these files mostly wait on a database
  // or a child process, so a second one roughly halves the wall time without crowding the CPU.
  test: { projects, pool: 'forks', maxWorkers: 2 },
});
