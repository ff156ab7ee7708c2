import { DataSource, DataSourceOptions, MixedList, EntitySchema } from 'typeorm';
import { ALL_MIGRATIONS } from './migrations';
import { QueryLogger } from './query-logger';

export interface DatabaseSettings {
  DATABASE_URL: string;
  DATABASE_POOL_SIZE?: number;
}

/**
 * The one TypeORM configuration, used by the apps, the CLI and the tests. The schema is owned by
 * checked-in migrations; `synchronize` stays off everywhere.
 */
export function dataSourceOptions(
  settings: DatabaseSettings,
  entities: MixedList<Function | string | EntitySchema> = [],
): DataSourceOptions {
  return {
    type: 'postgres',
    url: settings.DATABASE_URL,
    entities,
    migrations: ALL_MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: ['error', 'warn', 'migration'],
    logger: new QueryLogger(),
    maxQueryExecutionTime: 1000,
    extra: { max: settings.DATABASE_POOL_SIZE ?? 10, connectionTimeoutMillis: 5000 },
  };
}

export function createDataSource(
  settings: DatabaseSettings,
  entities: MixedList<Function | string | EntitySchema> = [],
): DataSource {
  return new DataSource(dataSourceOptions(settings, entities));
}

/** Applies pending migrations; returns the names of those applied. */
export async function migrate(settings: DatabaseSettings): Promise<string[]> {
  const ds = createDataSource(settings);
  await ds.initialize();
  try {
    const applied = await ds.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}

/** Where the database lives, without credentials, for messages. */
export function describeDatabase(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

/** Creates the database named in the URL if it does not exist (a fresh machine has none). */
export async function ensureDatabase(url: string): Promise<boolean> {
  const { Client } = await import('pg');
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(name)) throw new Error(`Unsupported database name "${name}"`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return false;
    await client.query(`CREATE DATABASE "${name}"`);
    return true;
  } finally {
    await client.end();
  }
}
