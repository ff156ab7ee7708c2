import { Controller, Get, Logger, Res } from '@nestjs/common';
import { HealthCheck, HealthCheckResult } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/decorators';
import { DEPENDENCY_RETRY_AFTER_SECONDS } from '../errors/dependency-errors';
import { ApiDocs } from '../api-docs/api-docs';
import { ReadinessProbe } from './readiness-probe';

@ApiDocs((s) => [s.ApiExcludeController()])
@Public()
@Controller('health')
export class HealthController {
  private readonly logger = new Logger('Health');

  constructor(private readonly readiness: ReadinessProbe) {}

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
    const result = await this.readiness.check();
    if (result.status === 'ok') return result;
    const down = Object.entries(result.error ?? {}).map(
      ([name, detail]) => `${name}: ${String(detail?.message ?? 'down')}`,
    );
    this.logger.warn(`Not ready: ${down.join(', ') || 'a check failed'}`);
    void reply.status(503).header('retry-after', String(DEPENDENCY_RETRY_AFTER_SECONDS));
    return result;
  }
}
