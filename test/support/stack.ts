import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Redis from 'ioredis';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createDataSource } from '@fincore/database';
import {
  ALL_SCOPES,
  AppConfig,
  AppDefinition,
  createApp,
  loadConfig,
  TokenAdmin,
  ApiTokenEntity,
  TenantEntity,
  Scope,
} from '@fincore/platform';
import { ApiClient, eventually } from './http';
import { freePort } from './net';
import type { OwnedPostgres, OwnedRedis } from './owned';
import { urlOfDatabase } from './template';

export { freePort };
import {
  ADMIN_DATABASE_URL,
  databasePrefix,
  queuePrefixBase,
  runId,
  templateDatabase,
  TEST_REDIS_URL,
} from './run';

/** Settings for tests: fast retries and polls, cheap password hashing, private receivers allowed. */
export const TEST_SETTINGS: Record<string, string> = {
  NODE_ENV: 'test',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  REDIS_URL: TEST_REDIS_URL,
  RATE_LIMIT_MAX: '100000',
  OUTBOX_POLL_MS: '500',
  RECONCILE_INTERVAL_MS: '1000',
  PASSWORD_HASH_MEMORY_KIB: '1024',
  PASSWORD_HASH_ITERATIONS: '1',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '0.2,0.4,0.8',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  BULL_BOARD_USERNAME: 'admin',
  BULL_BOARD_PASSWORD: 'test-password',
  HOST: '127.0.0.1',
};

let counter = 0;

/** The PostgreSQL and Redis a stack runs on: the machine's shared ones unless a test brings its own. */
export interface StackServices {
  /** A URL of the server's maintenance database, for creating and dropping the stack's one. */
  adminUrl: string;
  /** The migrated database each stack is cloned from. */
  template: string;
  redisUrl: string;
}

function sharedServices(): StackServices {
  return { adminUrl: ADMIN_DATABASE_URL, template: templateDatabase(runId()), redisUrl: TEST_REDIS_URL };
}

export interface RunningApp {
  app: NestFastifyApplication;
  url: string;
  api: ApiClient;
  close(): Promise<void>;
}

export interface SpawnedApp {
  process: ChildProcess;
  url: string;
  output: () => string;
  /** What it wrote to stdout and to stderr, each on its own. */
  written: () => { stdout: string; stderr: string };
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface TenantFixture {
  tenant: TenantEntity;
  token: string;
  tokenEntity: ApiTokenEntity;
  /** Another token of the same tenant, with the given scopes. */
  tokenWith(scopes: Scope[]): Promise<string>;
}

/**
 * One test file's world: its own database (cloned from the run's migrated template), its own
 * queue prefix, the apps it starts in-process or as child processes, and cleanup of all of it.
 */
export class TestStack {
  readonly env: Record<string, string>;
  readonly config: AppConfig;
  private readonly closers: Array<() => Promise<unknown>> = [];
  private dataSource?: DataSource;

  private constructor(
    readonly databaseName: string,
    overrides: Record<string, string>,
    private readonly services: StackServices,
  ) {
    const queuePrefix = `${queuePrefixBase(runId())}-${process.env.JEST_WORKER_ID ?? 0}-${++counter}-${randomBytes(2).toString('hex')}`;
    this.env = {
      ...TEST_SETTINGS,
      REDIS_URL: services.redisUrl,
      DATABASE_URL: urlOfDatabase(services.adminUrl, databaseName),
      QUEUE_PREFIX: queuePrefix,
      ...overrides,
    };
    this.config = loadConfig(this.env);
  }

  static async create(
    overrides: Record<string, string> = {},
    services: StackServices = sharedServices(),
  ): Promise<TestStack> {
    const name = `${databasePrefix(runId())}${process.env.JEST_WORKER_ID ?? 0}_${++counter}_${randomBytes(3).toString('hex')}`;
    const admin = new Client({ connectionString: services.adminUrl });
    await admin.connect();
    try {
      await eventually(
        async () => {
          await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${services.template}"`);
          return true;
        },
        { timeoutMs: 15_000, intervalMs: 100, what: `database ${name}` },
      );
    } finally {
      await admin.end();
    }
    return new TestStack(name, overrides, services);
  }

  /** A stack on a PostgreSQL and a Redis of the test's own, which it may restart, stop or freeze. */
  static async onOwnedServices(
    postgres: OwnedPostgres,
    redis: OwnedRedis,
    overrides: Record<string, string> = {},
  ): Promise<TestStack> {
    const template = await postgres.migratedTemplate();
    return TestStack.create(overrides, { adminUrl: postgres.url(), template, redisUrl: redis.url() });
  }

  /** Config of this stack with some settings changed (e.g. for a second app with other limits). */
  configWith(overrides: Record<string, string>): AppConfig {
    return loadConfig({ ...this.env, ...overrides });
  }

  /** Starts an app in this process on a free port. */
  async startApp(definition: AppDefinition, overrides: Record<string, string> = {}): Promise<RunningApp> {
    const app = await createApp(definition, this.configWith(overrides));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await app.close();
    };
    this.closers.push(close);
    return { app, url, api: new ApiClient(url), close };
  }

  /**
   * Starts an app as its own process from the build (`npm test` builds first), for tests of
   * crashes, signals and several replicas.
   */
  async spawnApp(
    name: 'credentials-api' | 'card-api' | 'notification-api' | 'notifier',
    overrides: Record<string, string> = {},
    /** A network namespace to run it in (`ip netns exec`), listening on its address there. */
    place?: { netns: string; host: string },
  ): Promise<SpawnedApp> {
    const port = await freePort();
    const portVariable = {
      'credentials-api': 'CREDENTIALS_API_PORT',
      'card-api': 'CARD_API_PORT',
      'notification-api': 'NOTIFICATION_API_PORT',
      notifier: 'NOTIFIER_PORT',
    }[name];
    const entry = join(__dirname, '..', '..', 'dist', 'apps', name, 'src', 'main.js');
    let output = '';
    const written = { stdout: '', stderr: '' };
    const host = place?.host ?? '127.0.0.1';
    const [command, args]: [string, string[]] = place
      ? ['ip', ['netns', 'exec', place.netns, process.execPath, entry]]
      : [process.execPath, [entry]];
    // `ip netns exec` replaces itself with node: the child's pid is the app's, for signals.
    const child = spawn(command, args, {
      env: {
        PATH: process.env.PATH ?? '',
        ...this.env,
        [portVariable]: String(port),
        ...(place && { HOST: place.host }),
        ...overrides,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream]!.on('data', (d: Buffer) => {
        output += d.toString();
        written[stream] += d.toString();
      });
    }
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const url = `http://${host}:${port}`;
    const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    };
    this.closers.push(() => stop('SIGKILL'));
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${output}`);
        const r = await fetch(`${url}/health/ready`).catch(() => undefined);
        return r?.status === 200;
      },
      { timeoutMs: 30_000, intervalMs: 200, what: `${name} to be ready` },
    );
    return { process: child, url, output: () => output, written: () => ({ ...written }), stop };
  }

  /** A DataSource on this stack's database, for setting up and asserting state directly. */
  async db(entities: Function[] = []): Promise<DataSource> {
    if (!this.dataSource) {
      this.dataSource = createDataSource(this.config, [TenantEntity, ApiTokenEntity, ...entities]);
      await this.dataSource.initialize();
      this.closers.push(() => this.dataSource!.destroy());
    }
    return this.dataSource;
  }

  /** A tenant with a token carrying every scope (or those given). */
  async createTenant(options: { code?: string; scopes?: Scope[] } = {}): Promise<TenantFixture> {
    const admin = new TokenAdmin(await this.db());
    const code = options.code ?? `T${randomBytes(4).toString('hex').toUpperCase()}`;
    const tenant = await admin.createTenant(code, `Tenant ${code}`);
    const { token, entity } = await admin.createToken(code, {
      scopes: options.scopes ?? [...ALL_SCOPES],
      name: 'test',
    });
    return {
      tenant,
      token,
      tokenEntity: entity,
      tokenWith: async (scopes) => (await admin.createToken(code, { scopes, name: 'test-scoped' })).token,
    };
  }

  redis(): Redis {
    const client = new Redis(this.config.REDIS_URL);
    this.closers.push(async () => client.disconnect());
    return client;
  }

  /** Closes apps, connections and processes, then drops the database. */
  async close(): Promise<void> {
    for (const close of this.closers.reverse()) await close().catch(() => undefined);
    this.closers.length = 0;
    const admin = new Client({ connectionString: this.services.adminUrl });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${this.databaseName}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  }
}
