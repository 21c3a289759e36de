import { readdirSync } from 'node:fs';
import next from 'eslint-config-next';

const typescript = next.find((c) => c.name === 'next/typescript');

// Capability boundaries (docs/architecture.md, "Capabilities and their doors"): lib/<capability>/index.ts
// is the only door. From outside lib/X, `@/lib/X/<module>` is an error, unless it is one of the entries
// below; a relative path may not reach into lib/ from outside it, nor above its own folder inside it.
const CAPABILITIES = readdirSync(new URL('./lib', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The modules besides index.ts that code outside the capability may import, and why each is a door of its own. */
const ENTRIES = {
  'agent/client': 'pure: the backend list, for the usage page and lib/config (which lib/agent itself reads)',
  'artifacts/client': 'pure: kinds, CSV, line diff and the HTML sandbox, for the artifact views in the browser',
  'cards/client': 'pure: card shapes and how to read them, for the card components in the browser',
  'planets/client': 'pure: isPlanet, money and the lead sources, for the usage page and the pipeline board in the browser',
  'sales/client': 'pure: the fields a territory rule looks at, for the territory editor in the browser',
  'imports/client': 'pure: the importable tables, their fields and what a mapping needs, for the Data settings screen',
  'i18n/client': "the provider and its hook ('use client')",
  'i18n/server': "the request's language (next/headers), for server components",
  'i18n/actions': "the language switch, a server action ('use server' files hold actions only)",
  'i18n/messages/en': 'a dictionary: loaded one at a time (a page never carries both), so index does not re-export it',
  'i18n/messages/it': 'a dictionary: loaded one at a time (a page never carries both), so index does not re-export it',
};
/** Each capability's test helpers: for tests and benchmarks only. */
const TEST_HELPERS = ['agent/testing', 'autonomy/test-world', 'channels/testing', 'chat/test-world', 'push/testing', 'topics/testing'];
/** Tests (and the helpers themselves): within lib/X, `lib/X/<glob>`; outside lib/, the globs as they are. */
const TESTS = ['**/*.test.ts', '**/*.test.tsx', 'test-world.ts', 'testing.ts', 'testing/**'];
const TESTS_OUTSIDE_LIB = ['**/*.test.ts', '**/*.test.tsx', 'test/**', 'e2e/**', 'bench/**'];
/** Dependencies that point one way: a capability that must not import another at all (tests may). */
const NEVER = {
  actions: { autonomy: 'lib/autonomy decides on and executes actions; lib/actions never calls back into it.' },
};

/** The rules for the files of capability `own` (undefined: files outside lib/), tests or not. */
function boundaries(own, tests) {
  const open = [...(own ? [`${own}/`] : []), ...Object.keys(ENTRIES).map((e) => `${e}$`), ...(tests ? TEST_HELPERS.map((e) => `${e}$`) : [])];
  const deep = `^@/lib/(?!(?:${open.join('|')}))[^/]+/`;
  const relative = own ? '^\\.\\./' : '^\\.{1,2}/(?:\\.\\./)*lib/';
  const deepMessage = 'Import a capability through its index (@/lib/<capability>) or an entry named in eslint.config.mjs (test helpers: from tests only).';
  const relativeMessage = own
    ? 'Write a path above this folder as @/lib/<capability>/…: a relative one could reach into another capability.'
    : 'Import lib/ as @/lib/<capability>, not by a relative path.';
  const never = (!tests && NEVER[own]) || {};
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: Object.entries(never).map(([name, message]) => ({ name: `@/lib/${name}`, message })),
        patterns: [
          { regex: deep, message: deepMessage },
          { regex: relative, message: relativeMessage },
          ...Object.entries(never).map(([name, message]) => ({ regex: `^@/lib/${name}/`, message })),
        ],
      },
    ],
    // The same for import('…'), which no-restricted-imports does not look at.
    'no-restricted-syntax': [
      'error',
      { selector: `ImportExpression[source.value=/${deep.replaceAll('/', '\\/')}/]`, message: deepMessage },
      { selector: `ImportExpression[source.value=/${relative.replaceAll('/', '\\/')}/]`, message: relativeMessage },
    ],
  };
}

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
  { files: ['**/*.{ts,tsx,js,mjs}'], ignores: ['lib/**'], rules: boundaries(undefined, false) },
  { files: TESTS_OUTSIDE_LIB, ignores: ['lib/**'], rules: boundaries(undefined, true) },
  ...CAPABILITIES.flatMap((own) => [
    { files: [`lib/${own}/**/*.{ts,tsx}`], rules: boundaries(own, false) },
    { files: TESTS.map((glob) => `lib/${own}/${glob}`), rules: boundaries(own, true) },
  ]),
];

export default config;
