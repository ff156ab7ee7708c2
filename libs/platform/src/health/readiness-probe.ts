import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { Gauge } from 'prom-client';
import { MetricsService } from '../metrics/metrics';
import { REDIS } from '../redis/redis.module';
import type { RedisClient } from '../redis/redis-connection';

const PROBE_TIMEOUT_MS = 2000;

/**
 * Whether PostgreSQL and Redis answer, each within a bound: what `/health/ready` says, and what
 * `dependency_up` says at every scrape, so an alert needs no prober of its own.
 */
@Injectable()
export class ReadinessProbe {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Inject(REDIS) private readonly redis: RedisClient,
    metrics: MetricsService,
  ) {
    const probe = () => this.check();
    new Gauge({
      name: 'dependency_up',
      help: 'Whether the dependency answered the readiness check at scrape time (1) or not (0)',
      labelNames: ['dependency'],
      registers: [metrics.registry],
      async collect() {
        const { details } = await probe();
        for (const [dependency, detail] of Object.entries(details))
          this.set({ dependency }, detail.status === 'up' ? 1 : 0);
      },
    });
  }

  /** The health body, `status` `ok` or `error`, with a detail per dependency. */
  async check(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        () => this.database.pingCheck('postgres', { timeout: PROBE_TIMEOUT_MS }),
        async () => {
          const indicator = this.indicators.check('redis');
          try {
            await Promise.race([
              this.redis.ping(),
              new Promise((_, reject) =>
                setTimeout(
                  () => reject(new Error(`timeout after ${PROBE_TIMEOUT_MS}ms`)),
                  PROBE_TIMEOUT_MS,
                ).unref(),
              ),
            ]);
            return indicator.up();
          } catch (error) {
            return indicator.down({ message: (error as Error).message });
          }
        },
      ]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      return error.getResponse() as HealthCheckResult;
    }
  }
}
