// Lint: TypeScript rules plus Nx module boundaries, so the layering is enforced by a tool:
// domain imports nothing but domain (and no I/O), adapters depend on the domain, never the reverse.
const nx = require('@nx/eslint-plugin');
const tseslint = require('typescript-eslint');

const IO_MODULES = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'net', 'node:net', 'http', 'node:http', 'https', 'node:https', 'child_process', 'node:child_process'];

/**
 * The layers, by project tag. The test doubles (libs/testing, `type:testing`) are no product code:
 * no library depends on them, and an app only where `withTestDoubles` is set (the CLI's `eval`,
 * an app's test/ folder); specs, test/ and bench/ are not checked at all (last block below).
 */
function moduleBoundaries(withTestDoubles) {
  const app = ['type:domain', 'type:adapter', 'type:application', 'type:integration'];
  return [
    'error',
    {
      enforceBuildableLibDependency: false,
      allow: [],
      depConstraints: [
        {
          sourceTag: 'type:domain',
          onlyDependOnLibsWithTags: ['type:domain'],
          bannedExternalImports: ['pg', 'kysely', '@electric-sql/*', '@nestjs/*', 'zod', 'pino', 'commander'],
        },
        { sourceTag: 'type:adapter', onlyDependOnLibsWithTags: ['type:domain', 'type:adapter'] },
        { sourceTag: 'type:application', onlyDependOnLibsWithTags: ['type:domain', 'type:adapter'] },
        { sourceTag: 'type:integration', onlyDependOnLibsWithTags: ['type:domain', 'type:adapter', 'type:application'] },
        { sourceTag: 'type:app', onlyDependOnLibsWithTags: withTestDoubles ? [...app, 'type:testing'] : app },
        { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:domain', 'type:adapter', 'type:application', 'type:testing'] },
      ],
    },
  ];
}

module.exports = [
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.nx/**',
      'coverage/**',
      'bin/**',
      'scripts/**',
      '*.config.js',
      'eslint.config.js',
      'examples/*/node_modules/**',
      'examples/*/dist/**',
      'clients/python/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': moduleBoundaries(false),
    },
  },
  // One file imports the KurrentDB client, so moving to its successor package is one diff (the
  // domain's rule below replaces this one there: the domain imports no client at all).
  {
    files: ['**/*.ts'],
    ignores: ['libs/store/src/kurrentdb/kurrentdb-client.ts', 'libs/testing/src/kurrentdb/protocol-server*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@eventstore/db-client', '@eventstore/db-client/*', '@kurrent/*'], message: 'import the KurrentDB client through libs/store/src/kurrentdb/kurrentdb-client.ts' }] },
      ],
    },
  },
  {
    files: ['libs/domain/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: IO_MODULES.map((name) => ({ name, message: 'the domain does no I/O' })), patterns: ['@eventstore/*', '@kurrent/*'] }] },
  },
  // The log is read and written through the event-store port (libs/store): no other code names
  // its PostgreSQL table.
  {
    files: ['**/*.ts'],
    ignores: ['libs/store/src/**', '**/*.spec.ts', 'test/**', 'bench/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TemplateElement[value.raw=/\\bfl_events\\b/]', message: 'read the log through the EventStore port (libs/store), not its table' },
        { selector: 'Literal[value=/\\bfl_events\\b/]', message: 'read the log through the EventStore port (libs/store), not its table' },
      ],
    },
  },
  // The fact projection's tables are the projections lib's own: other libs read them through its
  // API or its read views (fl_read_*, migrations/022).
  {
    files: ['**/*.ts'],
    ignores: ['libs/projections/src/**', 'libs/store/src/**', '**/*.spec.ts', 'test/**', 'bench/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TemplateElement[value.raw=/\\bfl_events\\b/]', message: 'read the log through the EventStore port (libs/store), not its table' },
        { selector: 'Literal[value=/\\bfl_events\\b/]', message: 'read the log through the EventStore port (libs/store), not its table' },
        {
          selector: 'TemplateElement[value.raw=/\\bfl_(memories|fact_history|erased_memories|checkpoints|projected_streams|answers)\\b/]',
          message: 'read the fact projection through libs/projections (its readers, or its read views fl_read_*), not its tables',
        },
      ],
    },
  },
  // `factledger eval` runs scenarios on fresh test databases (and a local KurrentDB): it may load
  // the test doubles, as may an app's own test folder (apps/server/test: the e2e tests' server).
  {
    files: ['apps/cli/src/eval/**/*.ts', 'apps/*/test/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries(true) },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off', '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
