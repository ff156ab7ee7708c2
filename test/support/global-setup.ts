import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrate } from '../../libs/database/src/data-source';
import { ADMIN_DATABASE_URL, databaseUrl, templateDatabase } from './run';

/**
 * Once per `npm test`: a run id, and a migrated template database that each test file clones
 * (CREATE DATABASE … TEMPLATE), so files never share state and a run never touches another's.
 */
export default async function globalSetup(): Promise<void> {
  const run = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  process.env.FINCORE_TEST_RUN = run;
  const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${templateDatabase(run)}"`);
  } finally {
    await admin.end();
  }
  await migrate({ DATABASE_URL: databaseUrl(templateDatabase(run)) });
}
