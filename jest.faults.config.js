/**
 * Fault scenarios (`*.faults-spec.ts` under test/faults): each restarts, freezes, flushes and kills the
 * services and processes of its own, so `npm test` leaves them out and `npm run test:faults` runs them.
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/faults/**/*.faults-spec.ts'],
  globalSetup: '<rootDir>/test/faults/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/faults/support/global-teardown.ts',
  testTimeout: 240_000,
};
