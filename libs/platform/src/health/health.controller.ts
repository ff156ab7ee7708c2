import { Controller, Get, Inject, Logger, Res, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheck,
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/decorators';
import { DEPENDENCY_RETRY_AFTER_SECONDS } from '../errors/dependency-errors';
import { ApiDocs } from '../api-docs/api-docs';
import { REDIS } from '../redis/redis.module';
import type { RedisClient } from '../redis/redis-connection';

@ApiDocs((s) => [s.ApiExcludeController()])
@Public()
@Controller('health')
export class HealthController {
  private readonly logger = new Logger('Health');

  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Inject(REDIS) private readonly redis: RedisClient,
  ) {}

  /** The process is up; says nothing of its dependencies. */
  @Get('live')
  live() {
    return { status: 'ok' };
  }

  /**
   * Ready to serve: PostgreSQL and Redis answer. Otherwise 503 with the health body, and one
   * warning per failed probe: an outage is not our error, and probes come every few seconds.
   */
  @Get('ready')
  // Left out of the document anyway; documented, it would load @nestjs/swagger in every process.
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        () => this.database.pingCheck('postgres', { timeout: 2000 }),
        async () => {
          const indicator = this.indicators.check('redis');
          try {
            await Promise.race([
              this.redis.ping(),
              new Promise((_, reject) =>
                setTimeout(() => reject(new Error('timeout after 2000ms')), 2000).unref(),
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
      const result = error.getResponse() as HealthCheckResult;
      const down = Object.entries(result.error ?? {}).map(
        ([name, detail]) => `${name}: ${String(detail?.message ?? 'down')}`,
      );
      this.logger.warn(`Not ready: ${down.join(', ') || 'a check failed'}`);
      void reply.status(503).header('retry-after', String(DEPENDENCY_RETRY_AFTER_SECONDS));
      return result;
    }
  }
}
