import { defineConfig, type TestProjectConfiguration } from 'vitest/config';
import path from 'node:path';

const shared = {
  include: ['lib/**/*.test.ts', 'inngest/**/*.test.ts', 'test/**/*.test.ts', 'components/**/*.test.ts'],
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

// Every test runs on the embedded PGlite and, when TEST_DATABASE_URL is set, on real Postgres too.
const projects: TestProjectConfiguration[] = [{ extends: true, test: { ...shared, name: 'pglite', env: { TEST_DB_KIND: 'pglite', LOG_LEVEL: 'silent' } } }];
if (process.env.TEST_DATABASE_URL) {
  projects.push({ extends: true, test: { ...shared, name: 'postgres', env: { TEST_DB_KIND: 'postgres', LOG_LEVEL: 'silent' } } });
}

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: { projects, pool: 'forks' },
});
