import next from 'eslint-config-next';

export default [
  ...next,
  { ignores: ['.next/**', '.data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'] },
];
