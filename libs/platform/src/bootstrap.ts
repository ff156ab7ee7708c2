import { randomUUID } from 'node:crypto';
import { Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { Client } from 'pg';
import { describeDatabase } from '@fincore/database';
import packageJson from '../../../package.json';
import { AppConfig, ConfigError, loadConfig } from './config/config';
import { clientErrorHandler, frameworkErrorHandler } from './errors/http-layer';
import { MAX_PARAM_LENGTH } from './errors/render';
import { useBoundedJsonParser } from './http/json-body';
import { setupOpenApi } from './http/openapi';
import { openRequestContexts } from './http/request-context.hook';
import { createRequestLog } from './http/request-log';
import { IdempotencyKeys } from './idempotency/idempotency-keys.service';
import { bindIdempotencyInterceptor } from './idempotency/idempotency.binding';
import { registerIdempotentReplies } from './idempotency/idempotent-replies';
import { MetricsService } from './metrics/metrics';
import { PlatformModule } from './platform.module';
import { createRedisClient, redisLocation } from './redis/redis-connection';
import { traceHttpRequests } from './telemetry/http-spans';
import { startTracing, Tracing, tracingActive } from './telemetry/tracing';

export interface AppDefinition {
  /** Process name, e.g. `card-api`. */
  name: string;
  title: string;
  description: string;
  module: Type<unknown>;
  port(config: AppConfig): number;
  /** False for a worker with no API of its own: no /docs, and @nestjs/swagger never loads. */
  openApi?: boolean;
  /**
   * True for an app that writes only state derived from durably committed changes, which its
   * reconcilers redo after a crash: its commits do not wait for the WAL flush.
   */
  asynchronousCommit?: boolean;
  /**
   * True for the app that serves the subscriber portal: its routes also take the portal's session
   * cookie (bound to one tenant, read-only or read-write) where no x-auth-token is sent.
   */
  portalSessions?: boolean;
  /** Where `GET /` sends a browser; default the API docs (none for an app without them). */
  home?: string;
  /** App-specific wiring after the Nest app exists and before it listens (e.g. Bull Board). */
  configure?(app: NestFastifyApplication, config: AppConfig): Promise<void> | void;
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
/** fincore's version, as every document and trace names it. */
export const APP_VERSION: string = packageJson.version;
/** Probes, polled every few seconds, are left out of the request log. */
const QUIET_PATHS = /^\/(health|metrics)(\/|\?|$)/;

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** Builds a ready, not yet listening app: tests call this; main.ts calls runApp. */
export async function createApp(
  definition: AppDefinition,
  config: AppConfig,
  options: { bufferLogs?: boolean } = {},
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.HTTP_BODY_LIMIT,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Forwarded headers only from the configured proxies; from anyone else they are ignored.
    trustProxy: config.TRUST_PROXY.trim() || false,
    // What the router and Node's parser refuse never reaches Nest's filter: answered here alike.
    frameworkErrors: frameworkErrorHandler(config),
    clientErrorHandler: clientErrorHandler(config),
    // x-request-id is taken when sane, generated otherwise, and written back so every layer sees one value.
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
      req.headers['x-request-id'] = id;
      return id;
    },
  });
  const fastify = adapter.getInstance();
  // JSON only: without the text/plain parser Fastify answers 415 for anything but JSON.
  fastify.removeContentTypeParser(['text/plain']);
  // Spans first, so the request context opened next already holds the server span.
  if (tracingActive()) traceHttpRequests(fastify, { skip: QUIET_PATHS });
  openRequestContexts(fastify);

  @Module({
    imports: [
      PlatformModule.forRoot({
        appName: definition.name,
        config,
        asynchronousCommit: definition.asynchronousCommit,
        portalSessions: definition.portalSessions,
      }),
      definition.module,
    ],
  })
  class RootModule {}

  // A module that cannot be built rejects here and the caller says why in one line: Nest's own
  // report of it (colours, stack trace) stays in the buffer.
  const app = await NestFactory.create<NestFastifyApplication>(RootModule, adapter, {
    bufferLogs: options.bufferLogs ?? true,
    autoFlushLogs: false,
    abortOnError: false,
    // Nest's own parsers would take form bodies as well: JSON is the only body (see json-body.ts).
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  app.flushLogs();
  useBoundedJsonParser(app, config.HTTP_BODY_LIMIT);

  const metrics = app.get(MetricsService);
  const requestLog = createRequestLog(definition.name, config.LOG_LEVEL);
  fastify.addHook('onClose', (_instance, done) => {
    requestLog.close();
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions?.url ?? 'unmatched';
    metrics.httpDuration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    // One line per request; the path without its query string, and never a header.
    if (!QUIET_PATHS.test(request.url)) {
      requestLog.log.info(
        {
          app: definition.name,
          requestId: request.id,
          method: request.method,
          route,
          path: pathOf(request.url),
          statusCode: reply.statusCode,
          responseTime: Math.round(reply.elapsedTime),
        },
        'request completed',
      );
    }
    done();
  });

  bindIdempotencyInterceptor(app);
  registerIdempotentReplies(fastify, app.get(IdempotencyKeys));

  if (definition.openApi !== false) {
    await setupOpenApi(app, {
      title: definition.title,
      description: definition.description,
      version: APP_VERSION,
      port: definition.port(config),
    });
  }
  const home = definition.home ?? (definition.openApi === false ? undefined : '/docs');
  if (home) fastify.get('/', (_request, reply) => reply.redirect(home, 302));
  await definition.configure?.(app, config);
  await app.init();
  return app;
}

export class DependencyError extends Error {}

/** Checks PostgreSQL and Redis before start, so an outage reads as one sentence, not a stack trace. */
export async function checkDependencies(config: AppConfig): Promise<void> {
  const pg = new Client({ connectionString: config.DATABASE_URL, connectionTimeoutMillis: 5000 });
  try {
    await pg.connect();
    const [{ ready }] = (await pg.query(`SELECT to_regclass('platform.tenants') IS NOT NULL AS ready`)).rows;
    if (!ready) {
      throw new DependencyError(
        `PostgreSQL at ${describeDatabase(config.DATABASE_URL)} has no fincore schema yet: run \`npm run cli -- migrate\``,
      );
    }
  } catch (error) {
    if (error instanceof DependencyError) throw error;
    throw new DependencyError(
      `PostgreSQL is unreachable at ${describeDatabase(config.DATABASE_URL)} (DATABASE_URL): ${(error as Error).message}`,
    );
  } finally {
    await pg.end().catch(() => undefined);
  }
  const redis = createRedisClient(config, {
    lazyConnect: true,
    connectTimeout: 5000,
    maxRetriesPerRequest: 0,
    reconnect: false,
    enableOfflineQueue: false,
  });
  // ioredis reports the socket error as an event and rejects with a generic "Connection is closed".
  let socketError: Error | undefined;
  redis.on('error', (error: Error) => (socketError ??= error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new DependencyError(
      `Redis is unreachable ${redisLocation(config)}: ${(socketError ?? (error as Error)).message}`,
    );
  } finally {
    redis.disconnect();
  }
}

/** Exports the spans still buffered, bounded so an unreachable collector cannot hold the exit up. */
async function flushTraces(tracing: Tracing | undefined): Promise<void> {
  if (!tracing) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    tracing.shutdown().catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, 5000))),
  ]);
  clearTimeout(timer);
}

/** Entry point of every app's main.ts: config, dependency check, listen, graceful shutdown. */
export async function runApp(definition: AppDefinition): Promise<void> {
  const fail = (message: string): never => {
    process.stderr.write(`[${definition.name}] ${message}\n`);
    process.exit(1);
  };
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    return fail(error instanceof ConfigError ? error.message : String(error));
  }
  // Before the app is built, so every span of the process goes to the configured exporter.
  const tracing = startTracing(definition.name, APP_VERSION);
  try {
    await checkDependencies(config);
  } catch (error) {
    return fail((error as Error).message);
  }

  let app: NestFastifyApplication;
  try {
    app = await createApp(definition, config);
    await app.listen({ port: definition.port(config), host: config.HOST });
  } catch (error) {
    return fail(`cannot start: ${(error as Error).message}`);
  }
  const logger = app.get(Logger);
  logger.log(`${definition.name} listening on ${await app.getUrl()}`, 'Bootstrap');

  // A terminal's Ctrl-C reaches every process of its group, and launchers may pass a signal on as
  // well: a repeated signal must not cut a drain short. The third one forces the exit.
  let signals = 0;
  const shutdown = (reason: string) => {
    signals += 1;
    if (signals === 3) fail(`${reason} a third time: exiting without finishing the drain`);
    if (signals > 1) {
      logger.warn(`${reason} while draining; once more exits at once`, 'Bootstrap');
      return;
    }
    logger.log(`${reason}: draining HTTP and closing workers`, 'Bootstrap');
    const force = setTimeout(() => fail('shutdown took longer than 25 s; exiting'), 25_000);
    force.unref();
    app
      .close()
      .then(() => flushTraces(tracing))
      .then(() => process.exit(0))
      .catch((error: Error) => fail(`error during shutdown: ${error.message}`));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM received'));
  process.on('SIGINT', () => shutdown('SIGINT received'));
  // Started by the launcher with a channel: when the launcher is gone, nobody will send a signal.
  if (process.channel) process.once('disconnect', () => shutdown('launcher gone'));
}
