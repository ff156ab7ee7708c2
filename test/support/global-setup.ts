import { randomBytes } from 'node:crypto';
import { ADMIN_DATABASE_URL, templateDatabase } from './run';
import { createMigratedTemplate } from './template';

/**
 * Once per `npm test`: a run id, and a migrated template database that each test file clones
 * (CREATE DATABASE … TEMPLATE), so files never share state and a run never touches another's.
 */
export default async function globalSetup(): Promise<void> {
  const run = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  process.env.FINCORE_TEST_RUN = run;
  await createMigratedTemplate(ADMIN_DATABASE_URL, templateDatabase(run));
}
