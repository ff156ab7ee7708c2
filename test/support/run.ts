/** Names shared by the global setup, the tests and the teardown of one `npm test` run. */
export const ADMIN_DATABASE_URL =
  process.env.FINCORE_TEST_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export function runId(): string {
  const id = process.env.FINCORE_TEST_RUN;
  if (!id) throw new Error('FINCORE_TEST_RUN is not set: run the tests with `npm test` (jest globalSetup)');
  return id;
}

export function databaseUrl(name: string): string {
  const u = new URL(ADMIN_DATABASE_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

export const templateDatabase = (run: string) => `fincore_test_${run}_tpl`;
export const databasePrefix = (run: string) => `fincore_test_${run}_`;
export const queuePrefixBase = (run: string) => `fincore-test-${run}`;
