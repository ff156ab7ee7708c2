import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

// A library is used through its index only, so its inside can change without breaking callers.
const deepImport = {
  group: ['@fincore/*/*'],
  message: 'Import the library through its public entry point (@fincore/<lib>), not a file inside it.',
};

// Inside a library its own index would be an import cycle: its files import each other relatively.
const libraries = readdirSync(new URL('./libs', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const ownIndex = libraries.map((lib) => ({
  files: [`libs/${lib}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: [{ name: `@fincore/${lib}`, message: 'Import files of the same library relatively.' }],
        patterns: [deepImport],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
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
  ...ownIndex,
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
);
