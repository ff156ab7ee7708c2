import { DataSource, DataSourceOptions, MixedList, EntitySchema } from 'typeorm';
import { ALL_MIGRATIONS } from './migrations';
import { QueryLogger } from './query-logger';
import { clientGivingUpAfter } from './unresponsive-server-guard';

export interface DatabaseSettings {
  DATABASE_URL: string;
  DATABASE_POOL_SIZE?: number;
  /** Longest a statement may run (PostgreSQL statement_timeout); 0 turns the bound off. */
  DATABASE_STATEMENT_TIMEOUT_MS?: number;
  /** Longest a statement may wait for a lock (lock_timeout); 0 turns the bound off. */
  DATABASE_LOCK_TIMEOUT_MS?: number;
  /** Longest a transaction may sit idle before the server ends the session. */
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS?: number;
  /** Longest a request waits for a pooled connection, or for a new one to be established. */
  DATABASE_ACQUIRE_TIMEOUT_MS?: number;
  /**
   * Commits answer before their WAL is flushed (synchronous_commit off), for an app whose writes
   * are all derived from changes already committed durably and are redone after a crash. Set by the
   * app, not by an environment variable.
   */
  asynchronousCommit?: boolean;
}

/** Beyond the statement timeout, how long the client still waits for a server that says nothing. */
const UNRESPONSIVE_SERVER_MARGIN_MS = 1000;

export const DATABASE_TIMEOUT_DEFAULTS = {
  DATABASE_STATEMENT_TIMEOUT_MS: 5000,
  DATABASE_LOCK_TIMEOUT_MS: 3000,
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: 30000,
  DATABASE_ACQUIRE_TIMEOUT_MS: 2000,
} as const;

/**
 * Options of the pg pool: every bound on how long a request can wait for PostgreSQL. The server
 * cancels slow statements and lock waits; the client gives up on a server that does not answer.
 */
export function poolOptions(settings: DatabaseSettings): Record<string, unknown> {
  const bounds = { ...DATABASE_TIMEOUT_DEFAULTS, ...definedOnly(settings) };
  const statementTimeout = bounds.DATABASE_STATEMENT_TIMEOUT_MS;
  return {
    max: settings.DATABASE_POOL_SIZE ?? 10,
    connectionTimeoutMillis: bounds.DATABASE_ACQUIRE_TIMEOUT_MS,
    statement_timeout: statementTimeout,
    lock_timeout: bounds.DATABASE_LOCK_TIMEOUT_MS,
    idle_in_transaction_session_timeout: bounds.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    keepAlive: true,
    ...(settings.asynchronousCommit ? { options: '-c synchronous_commit=off' } : {}),
    ...(statementTimeout > 0
      ? { Client: clientGivingUpAfter(statementTimeout + UNRESPONSIVE_SERVER_MARGIN_MS) }
      : {}),
  };
}

function definedOnly<T extends object>(settings: T): Partial<T> {
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as Partial<T>;
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
    extra: poolOptions(settings),
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
  // A migration may rewrite a large table or wait for a busy one: the request bounds do not apply.
  const ds = createDataSource({
    ...settings,
    DATABASE_STATEMENT_TIMEOUT_MS: 0,
    DATABASE_LOCK_TIMEOUT_MS: 0,
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: 0,
  });
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
