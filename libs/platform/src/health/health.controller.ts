import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import Redis from 'ioredis';
import { Public } from '../auth/decorators';
import { REDIS } from '../redis/redis.module';

@ApiExcludeController()
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** The process is up; says nothing of its dependencies. */
  @Get('live')
  live() {
    return { status: 'ok' };
  }

  /** Ready to serve: PostgreSQL and Redis answer (503 otherwise). */
  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([
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
  }
}
