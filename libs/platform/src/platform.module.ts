import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { DatabaseModule } from '@fincore/database';
import { ApiTokenEntity } from './auth/api-token.entity';
import { ApiTokenRepository } from './auth/api-token.repository';
import { ACCEPTS_PORTAL_SESSIONS, AuthGuard } from './auth/auth.guard';
import { TenantEntity } from './auth/tenant.entity';
import { TenantRepository } from './auth/tenant.repository';
import { TokenService } from './auth/token.service';
import { APP_CONFIG, AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { requestContext } from './context/request-context';
import { ProblemFilter } from './errors/problem.filter';
import { HealthController } from './health/health.controller';
import { ReadinessProbe } from './health/readiness-probe';
import { RateLimitGuard } from './http/rate-limit.guard';
import { RateLimiter } from './http/rate-limiter';
import { IdempotencyKeyJanitor } from './idempotency/idempotency-key.janitor';
import { IdempotencyKeyRepository } from './idempotency/idempotency-key.repository';
import { IdempotencyKeys } from './idempotency/idempotency-keys.service';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { MetricsModule } from './metrics/metrics';
import { RedisModule } from './redis/redis.module';
import { PortalSessionRepository } from './portal/portal-session.repository';
import { PortalSessions } from './portal/portal-sessions';
import { createValidationPipe } from './validation/validation';

export interface PlatformOptions {
  appName: string;
  config: AppConfig;
  /** See AppDefinition.asynchronousCommit. */
  asynchronousCommit?: boolean;
  /** See AppDefinition.portalSessions. */
  portalSessions?: boolean;
}

/**
 * Everything every fincore app has: configuration, JSON logs with request ids, problem+json errors,
 * schema validation, token auth with scopes, Redis-backed rate limits, Idempotency-Key on POSTs,
 * health, metrics, TypeORM root.
 */
@Module({})
export class PlatformModule {
  static forRoot({ appName, config, asynchronousCommit, portalSessions }: PlatformOptions): DynamicModule {
    return {
      module: PlatformModule,
      global: true,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({
          // No per-request middleware: a child logger per request cost more than the request's own
          // work. The request id comes from the request context instead (see mixin), and the line
          // per request is written by a Fastify hook (see bootstrap), which knows the route.
          forRoutes: [],
          pinoHttp: {
            name: appName,
            level: config.LOG_LEVEL,
            mixin: () => {
              const requestId = requestContext.requestId();
              return requestId ? { app: appName, requestId } : { app: appName };
            },
            redact: ['req.headers["x-auth-token"]', 'req.headers.authorization', 'req.headers.cookie'],
          },
        }),
        DatabaseModule.forRoot(APP_CONFIG, { asynchronousCommit }),
        TypeOrmModule.forFeature([TenantEntity, ApiTokenEntity]),
        RedisModule,
        TerminusModule.forRoot({ errorLogStyle: 'json', logger: false }),
        MetricsModule,
      ],
      controllers: [HealthController],
      providers: [
        ReadinessProbe,
        TenantRepository,
        ApiTokenRepository,
        TokenService,
        PortalSessionRepository,
        PortalSessions,
        { provide: ACCEPTS_PORTAL_SESSIONS, useValue: portalSessions ?? false },
        RateLimiter,
        IdempotencyKeyRepository,
        IdempotencyKeys,
        IdempotencyKeyJanitor,
        // Bound to the routes that take an Idempotency-Key only (see bindIdempotencyInterceptor).
        IdempotencyInterceptor,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_FILTER, useClass: ProblemFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
      exports: [
        TenantRepository,
        ApiTokenRepository,
        TokenService,
        PortalSessionRepository,
        RateLimiter,
        IdempotencyKeyRepository,
        TypeOrmModule,
      ],
    };
  }
}
