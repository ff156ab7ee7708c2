import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import jest from 'eslint-plugin-jest';

// A library is used through its index only, so its inside can change without breaking callers.
const deepImport = {
  group: ['@fincore/*/*'],
  message: 'Import the library through its public entry point (@fincore/<lib>), not a file inside it.',
};

// A package's src/ is its inside: reached relatively from elsewhere (`../../<package>/src/…`), it
// would bypass the library's index or tie one app to another's code; a package's own files beside
// src/ reach it as `../src/…`. `allowed` names the deliberate exceptions.
const intoSrc = (allowed) => ({
  regex: `^${allowed ? `(?!${allowed})` : ''}(\\.\\./)+(.*/)?[^./][^/]*/src(/|$)`,
  message:
    "A relative import into another package's src/: use @fincore/<lib>; an app never imports another app.",
});

// Product code is built into dist/ and the image: tests, fixtures and the benchmark stay out of it.
const testCode = {
  regex: '^@test/|\\.fixtures$|^(\\.\\./)+(test|bench)/',
  message: 'Product code does not import tests, fixtures or benchmark code.',
};
const TEST_FILES = ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/*.fixtures.ts'];

const restrict = (patterns, paths = []) => ({ 'no-restricted-imports': ['error', { paths, patterns }] });

// Inside a library its own index would be an import cycle: its files import each other relatively.
const libraries = readdirSync(new URL('./libs', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const packages = [
  { files: ['apps/**/*.ts', 'scripts/**/*.ts'], paths: [] },
  ...libraries.map((lib) => ({
    files: [`libs/${lib}/**/*.ts`],
    paths: [{ name: `@fincore/${lib}`, message: 'Import files of the same library relatively.' }],
  })),
];
const boundaries = packages.flatMap(({ files, paths }) => [
  { files, rules: restrict([deepImport, intoSrc()], paths) },
  { files, ignores: TEST_FILES, rules: restrict([deepImport, intoSrc(), testCode], paths) },
]);
// The CLI, as composition root, seeds each app's demo data; the launcher runs the CLI's commands.
const exceptions = [
  { files: ['apps/cli/src/demo-seeds.ts'], allowed: '\\.\\./\\.\\./[\\w-]+/src/([\\w-]+/)*demo\\.seed$' },
  { files: ['scripts/start.ts'], allowed: '\\.\\./apps/cli/src/' },
].map(({ files, allowed }) => ({ files, rules: restrict([deepImport, intoSrc(allowed), testCode]) }));

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-bench/**',
      'node_modules/**',
      'coverage/**',
      '**/*.js',
      '**/*.mjs',
      'apps/portal/src/schema.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-restricted-imports': ['error', { patterns: [deepImport] }],
    },
  },
  ...boundaries,
  ...exceptions,
  {
    // A problem's status belongs to its code's catalog entry: code raises it through a factory.
    files: ['libs/**/*.ts', 'apps/**/*.ts'],
    ignores: ['libs/platform/src/errors/**', '**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='ProblemException']",
          message:
            "Raise a problem through its context's factory (defineProblems), which holds the code's status.",
        },
      ],
    },
  },
  {
    // A library's index names each export, so nothing inside it becomes public by being added.
    files: ['libs/*/src/index.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'Name the exports of a library index.' },
      ],
    },
  },
  {
    // A test that asserts nothing, asserts only on some paths, or is switched off cannot fail.
    files: TEST_FILES,
    plugins: { jest },
    rules: {
      'jest/expect-expect': [
        'error',
        // Helpers that assert: expect* (expectProblem, expectHistoryChain, …), property runs, and
        // throughFault, which asserts every answer during an outage was 2xx or a bounded 503.
        { assertFunctionNames: ['expect', 'expect*', '*.expect*', 'fc.assert', 'throughFault'] },
      ],
      'jest/no-conditional-expect': 'error',
      'jest/valid-expect': 'error',
      'jest/no-disabled-tests': 'error',
      'jest/no-focused-tests': 'error',
    },
  },
);
