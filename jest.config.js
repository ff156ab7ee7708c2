/** Unit tests (*.spec.ts) sit beside the code; end-to-end tests (*.e2e-spec.ts) live in test/. */
const libs = '(platform|database|events|webhooks|notifications)';

module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/{apps,libs,test}/**/*.spec.ts', '<rootDir>/{apps,libs,test}/**/*.e2e-spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json', diagnostics: false }],
  },
  moduleNameMapper: {
    [`^@fincore/${libs}$`]: '<rootDir>/libs/$1/src',
    '^@test/support/(.*)$': '<rootDir>/test/support/$1',
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  // Coverage of product code, only when asked (`npm test` passes --coverage). Istanbul's counters,
  // compiled into the cached transform of product files only, cost a run about a tenth; V8's own
  // coverage snapshots every script of every test file (node_modules included) and doubled it.
  // Migrations run in the global setup, outside every test's coverage.
  coverageProvider: 'babel',
  collectCoverageFrom: [
    '<rootDir>/{apps,libs}/**/*.ts',
    '!**/*.spec.ts',
    '!**/*.e2e-spec.ts',
    '!**/*.fixtures.ts',
    '!<rootDir>/libs/database/src/migrations/**',
  ],
  coverageDirectory: '<rootDir>/coverage',
  coverageReporters: ['text-summary', 'lcov'],
  maxWorkers: 2,
  testTimeout: 30_000,
  // Workers keep BullMQ and pg sockets until their apps close; tests close what they open.
  forceExit: false,
};
