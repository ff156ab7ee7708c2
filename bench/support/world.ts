import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import Redis from 'ioredis';
import { Client } from 'pg';
import { createDataSource, migrate } from '@fincore/database';
import { ALL_SCOPES, ApiTokenEntity, TenantEntity, TokenAdmin } from '@fincore/platform';
import { BenchSettings } from './settings';

export interface BenchTenant {
  tenantId: string;
  code: string;
  token: string;
}

/**
 * The benchmark's own world: a fresh database (migrated), a queue prefix of its own on the local
 * Redis, and the cleanup of both. Nothing of another run or of the tests is touched.
 */
export class BenchWorld {
  readonly databaseName: string;
  readonly databaseUrl: string;
  /** QUEUE_PREFIX of the fincore processes; every Redis key of the run starts with `{<runPrefix>`. */
  readonly queuePrefix: string;
  /** BullMQ prefix of the bare baseline (same Redis, own keys). */
  readonly baselineQueuePrefix: string;
  private readonly runPrefix: string;

  private constructor(private readonly settings: BenchSettings) {
    const id = randomBytes(4).toString('hex');
    this.databaseName = `fincore_bench_${id}`;
    const u = new URL(settings.adminDatabaseUrl);
    u.pathname = `/${this.databaseName}`;
    this.databaseUrl = u.toString();
    this.runPrefix = `fincore-bench-${id}`;
    this.queuePrefix = this.runPrefix;
    this.baselineQueuePrefix = `{${this.runPrefix}-baseline}`;
  }

  static async create(settings: BenchSettings): Promise<BenchWorld> {
    const world = new BenchWorld(settings);
    await world.admin((c) => c.query(`CREATE DATABASE "${world.databaseName}"`));
    await migrate({ DATABASE_URL: world.databaseUrl });
    return world;
  }

  /** A tenant with a token carrying every scope, made the way the CLI makes them. */
  async createTenant(): Promise<BenchTenant> {
    const ds = createDataSource({ DATABASE_URL: this.databaseUrl }, [TenantEntity, ApiTokenEntity]);
    await ds.initialize();
    try {
      const admin = new TokenAdmin(ds);
      // Six random bytes: the tenant curve makes a thousand tenants a run, and with three bytes two of
      // them shared a code in about one run in thirty.
      const code = `BENCH${randomBytes(6).toString('hex').toUpperCase()}`;
      const tenant = await admin.createTenant(code, `Benchmark ${code}`);
      const { token } = await admin.createToken(code, { scopes: [...ALL_SCOPES], name: 'bench' });
      return { tenantId: tenant.id, code, token };
    } finally {
      await ds.destroy();
    }
  }

  async query<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /**
   * ANALYZE, as autovacuum does after a set-up's inserts in production: a PostgreSQL run with
   * autovacuum off (as on some test machines) never analyzes, and a never-analyzed table can get
   * plans production never sees (a lookup by person id scanning a whole tenant's index range).
   */
  async analyze(): Promise<void> {
    await this.query('ANALYZE');
  }

  /**
   * The Redis server's process, measured like the apps: it serves the queues of fincore and of the
   * baseline alike. Undefined when it is not a process of this machine.
   */
  async redisServer(): Promise<{ name: string; pid: number } | undefined> {
    const redis = new Redis(this.settings.redisUrl, { maxRetriesPerRequest: 1 });
    try {
      const pid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
      return existsSync(`/proc/${pid}/stat`) ? { name: 'redis', pid } : undefined;
    } finally {
      redis.disconnect();
    }
  }

  /** Drops the database and deletes every Redis key of this run. */
  async destroy(): Promise<void> {
    if (this.settings.keep) {
      process.stderr.write(
        `BENCH_KEEP=1: kept database ${this.databaseName} and Redis keys {${this.runPrefix}*\n`,
      );
      return;
    }
    await this.admin((c) => c.query(`DROP DATABASE IF EXISTS "${this.databaseName}" WITH (FORCE)`)).catch(
      (e: Error) => process.stderr.write(`could not drop ${this.databaseName}: ${e.message}\n`),
    );
    const redis = new Redis(this.settings.redisUrl, { maxRetriesPerRequest: 1 });
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `{${this.runPrefix}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await redis.unlink(...keys);
      } while (cursor !== '0');
    } catch (e) {
      process.stderr.write(`could not clean Redis keys {${this.runPrefix}*: ${(e as Error).message}\n`);
    } finally {
      redis.disconnect();
    }
  }

  private async admin(work: (c: Client) => Promise<unknown>): Promise<void> {
    const client = new Client({ connectionString: this.settings.adminDatabaseUrl });
    await client.connect();
    try {
      await work(client);
    } finally {
      await client.end();
    }
  }
}
