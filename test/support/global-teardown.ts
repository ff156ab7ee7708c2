import Redis from 'ioredis';
import { Client } from 'pg';
import { ADMIN_DATABASE_URL, databasePrefix, queuePrefixBase, runId, TEST_REDIS_URL } from './run';

/** Drops every database and Redis key this run made. */
export default async function globalTeardown(): Promise<void> {
  const run = runId();
  const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`${databasePrefix(run)}%`],
    );
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  const redis = new Redis(TEST_REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `{${queuePrefixBase(run)}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
