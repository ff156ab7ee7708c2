export { ApiTokenEntity } from './auth/api-token.entity';
export { ApiAuth, CurrentPrincipal, PROBLEM_CONTENT, RequireTenantHeader } from './auth/decorators';
export { ALL_SCOPES, SCOPES } from './auth/scopes';
export type { Scope } from './auth/scopes';
export { TenantEntity } from './auth/tenant.entity';
export { TenantRepository } from './auth/tenant.repository';
export { TokenAdmin } from './auth/token-admin';
export { APP_VERSION, checkDependencies, createApp, runApp } from './bootstrap';
export type { AppDefinition } from './bootstrap';
export { BoundedMap } from './cache/bounded-map';
export { ReplicatedCacheProvider } from './cache/replicated-cache';
export { APP_CONFIG, ConfigError, loadConfig } from './config/config';
export type { AppConfig } from './config/config';
export { ConfigModule } from './config/config.module';
export type { Principal } from './context/principal';
export { requestContext } from './context/request-context';
export { DEMO_TENANT_CODE } from './demo-seed';
export type { DemoSeed } from './demo-seed';
export { negotiateLanguage, registerFieldMessages } from './errors/messages';
export type { Language } from './errors/messages';
export { ProblemException } from './errors/problem';
export { defineProblems } from './errors/problem-catalog';
export type { FieldError } from './errors/problem';
export { RateLimiter } from './http/rate-limiter';
export { endedSessionCookie, PORTAL_COOKIE, PORTAL_CSRF_HEADER, sessionCookie } from './portal/portal-cookie';
export {
  PORTAL_LINK_SECONDS,
  PORTAL_OPEN_PATH,
  PORTAL_PATH,
  PORTAL_SESSION_SECONDS,
  portalBaseUrl,
  PortalLinks,
} from './portal/portal-links';
export type { PortalLink } from './portal/portal-links';
export { PortalSessionRepository } from './portal/portal-session.repository';
export { keyDigest } from './idempotency/idempotency-key';
export { IdempotencyKeyRepository } from './idempotency/idempotency-key.repository';
export { WithoutIdempotencyKey } from './idempotency/without-idempotency-key.decorator';
export { IdempotentAnswerAbout } from './idempotency/answer-subject.decorator';
export type { AnswerSubject } from './idempotency/answer-subject.decorator';
export { MetricsService } from './metrics/metrics';
export {
  closeRedisClient,
  createQueueConnection,
  createRedisClient,
  QUEUE_SOCKET_TIMEOUT_MS,
} from './redis/redis-connection';
export type { RedisClient } from './redis/redis-connection';
export { logConnectionErrors } from './redis/redis-errors';
export { redisScript } from './redis/redis-script';
export { REDIS, redisKey, tokenRevokedChannel } from './redis/redis.module';
export { deleteInBatches, PeriodicTask } from './scheduling/periodic-task';
export {
  asTraceCarrier,
  carrierOf,
  deserializeTraceContext,
  endSpan,
  inSpan,
  linkToCarrier,
  serializeTraceContext,
  SpanKind,
  SpanStatusCode,
  startSpan,
  traceCarrier,
  traceHeaders,
  traceIdOf,
} from './telemetry/trace-context';
export type { Span, SpanOptions, TraceCarrier } from './telemetry/trace-context';
export { CURSOR_MAX_LENGTH, cursorParam, keysetCursor } from './validation/cursor';
export { invalidCursor, validationFailed } from './validation/validation.problems';
export {
  boundedInt,
  boundedIntParam,
  decimalString,
  freeText,
  instant,
  isWellFormedText,
} from './validation/primitives';
