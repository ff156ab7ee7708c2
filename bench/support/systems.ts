import { randomBytes } from 'node:crypto';
import { BASELINE_SCHEMA_SQL } from '../baseline/schema';
import { join } from 'node:path';
import { BENCH_ROOT, BenchProcess, DIST_ROOT, freePort } from './processes';
import { BenchSettings } from './settings';
import { BenchWorld } from './world';

export type FincoreApp = 'credentials-api' | 'card-api' | 'notification-api' | 'notifier';

const PORT_VARIABLE: Record<FincoreApp, string> = {
  'credentials-api': 'CREDENTIALS_API_PORT',
  'card-api': 'CARD_API_PORT',
  'notification-api': 'NOTIFICATION_API_PORT',
  notifier: 'NOTIFIER_PORT',
};

/**
 * Starts the fincore apps and the baselines as child processes of the benchmark, all on the
 * benchmark's database and Redis prefix, and stops them again.
 */
export class Systems {
  private readonly running = new Set<BenchProcess>();
  /** Settings of the fincore processes: production mode and defaults, except what a benchmark must change. */
  readonly fincoreEnv: Record<string, string>;
  readonly webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;

  constructor(
    private readonly world: BenchWorld,
    settings: BenchSettings,
  ) {
    this.fincoreEnv = {
      NODE_ENV: 'production',
      LOG_LEVEL: settings.logLevel,
      DATABASE_URL: world.databaseUrl,
      REDIS_URL: settings.redisUrl,
      QUEUE_PREFIX: world.queuePrefix,
      HOST: '127.0.0.1',
      // The load comes from one token: the per-token limit (1200/min by default) would measure the limiter.
      RATE_LIMIT_MAX: '100000000',
      // Only person creation in the set-up hashes passwords; the measured requests never do.
      PASSWORD_HASH_MEMORY_KIB: '1024',
      PASSWORD_HASH_ITERATIONS: '1',
      // The receiver listens on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
      BULL_BOARD_PASSWORD: randomBytes(12).toString('hex'),
    };
  }

  /** Starts an app with the benchmark's settings, and `overrides` on top (e.g. short retention). */
  async startFincore(app: FincoreApp, overrides: Record<string, string> = {}): Promise<BenchProcess> {
    const port = await freePort();
    const proc = await BenchProcess.start(
      app,
      join(DIST_ROOT, 'apps', app, 'src', 'main.js'),
      { ...this.fincoreEnv, ...overrides, [PORT_VARIABLE[app]]: String(port) },
      port,
      '/health/ready',
    );
    this.running.add(proc);
    return proc;
  }

  async prepareBaselineSchema(): Promise<void> {
    await this.world.query(BASELINE_SCHEMA_SQL);
  }

  /** The bare API, with `extraEnv` on top (e.g. NODE_OPTIONS for a profile). */
  async startBaselineApi(extraEnv: Record<string, string> = {}): Promise<BenchProcess> {
    const port = await freePort();
    const proc = await BenchProcess.start(
      'baseline-api',
      join(BENCH_ROOT, 'bench', 'baseline', 'api-server.js'),
      {
        DATABASE_URL: this.world.databaseUrl,
        DATABASE_POOL_SIZE: '10',
        REDIS_URL: this.fincoreEnv.REDIS_URL,
        BASELINE_QUEUE_PREFIX: this.world.baselineQueuePrefix,
        PORT: String(port),
        ...extraEnv,
      },
      port,
      '/health/ready',
    );
    this.running.add(proc);
    return proc;
  }

  /** The bare webhook worker, POSTing every event to each of `webhookUrls`. */
  async startBaselineWorker(webhookUrls: string[]): Promise<BenchProcess> {
    const port = await freePort();
    const proc = await BenchProcess.start(
      'baseline-worker',
      join(BENCH_ROOT, 'bench', 'baseline', 'webhook-worker.js'),
      {
        REDIS_URL: this.fincoreEnv.REDIS_URL,
        BASELINE_QUEUE_PREFIX: this.world.baselineQueuePrefix,
        WEBHOOK_URLS: webhookUrls.join(','),
        WEBHOOK_SECRET: this.webhookSecret,
        // Same concurrency as the notifier's delivery worker (WEBHOOK_CONCURRENCY default).
        WEBHOOK_CONCURRENCY: '20',
        PORT: String(port),
      },
      port,
      '/health/ready',
    );
    this.running.add(proc);
    return proc;
  }

  async stop(proc: BenchProcess): Promise<void> {
    this.running.delete(proc);
    await proc.stop();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.running].map((p) => p.stop().catch(() => undefined)));
    this.running.clear();
  }
}
