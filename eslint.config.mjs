import next from 'eslint-config-next';

const typescript = next.find((c) => c.name === 'next/typescript');

const config = [
  ...next,
  { ignores: ['.next/**', '.data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'] },
  // No dead code: an unused import, variable or parameter is an error (a leading _ marks one kept on purpose).
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: typescript.plugins,
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
];

export default config;
