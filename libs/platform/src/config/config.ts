import * as ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { DATABASE_TIMEOUT_DEFAULTS as DB } from '@fincore/database';
import { parseRedisClusterNodes } from './cluster-nodes';

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** Milliseconds, where 0 turns the bound off. */
const millis = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
/** One trusted proxy as Fastify's trustProxy takes it: an address, a CIDR range or a named range. */
const isProxyAddress = (v: string) =>
  ['loopback', 'linklocal', 'uniquelocal'].includes(v) ||
  ipaddr.IPv4.isValidFourPartDecimal(v) ||
  ipaddr.IPv4.isValidCIDRFourPartDecimal(v) ||
  ipaddr.IPv6.isValid(v) ||
  ipaddr.IPv6.isValidCIDR(v);
const url = (protocols: string[], fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL with protocol ${protocols.join(' or ')}`,
    );

/**
 * Every setting of every fincore process, read from the environment. The defaults suit a machine
 * with local PostgreSQL and Redis, which then needs no variable at all.
 */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: url(['postgres:', 'postgresql:'], 'postgres://postgres@127.0.0.1:5432/fincore'),
  DATABASE_POOL_SIZE: positiveInt(10),
  /** PostgreSQL statement_timeout of every connection; a request answers 503 beyond it (0: off). */
  DATABASE_STATEMENT_TIMEOUT_MS: millis(DB.DATABASE_STATEMENT_TIMEOUT_MS),
  /** PostgreSQL lock_timeout: the longest a statement waits for a row or table lock (0: off). */
  DATABASE_LOCK_TIMEOUT_MS: millis(DB.DATABASE_LOCK_TIMEOUT_MS),
  /** PostgreSQL idle_in_transaction_session_timeout: ends sessions that hold a transaction open. */
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: millis(DB.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS),
  /** Longest a request waits for a pooled connection or a new one; 503 beyond it. */
  DATABASE_ACQUIRE_TIMEOUT_MS: positiveInt(DB.DATABASE_ACQUIRE_TIMEOUT_MS),
  REDIS_URL: url(['redis:', 'rediss:'], 'redis://127.0.0.1:6379'),
  /**
   * Seed nodes of a Redis Cluster (`host:port,host:port`); when set, every Redis connection goes to
   * the cluster and REDIS_URL gives only the user, password and TLS (`rediss:`).
   */
  REDIS_CLUSTER_NODES: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      if (v === undefined) return;
      try {
        parseRedisClusterNodes(v);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `must be comma-separated host:port pairs: ${(error as Error).message}`,
        });
      }
    }),
  /** Longest a request waits for a Redis answer (rate limits, login throttle) before going on without. */
  REDIS_COMMAND_TIMEOUT_MS: positiveInt(1000),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1-64 characters of letters, digits, _ . : -')
    .default('fincore'),
  CREDENTIALS_API_PORT: port(3001),
  CARD_API_PORT: port(3002),
  NOTIFICATION_API_PORT: port(3003),
  NOTIFIER_PORT: port(3004),
  HOST: z.string().default('127.0.0.1'),
  /** Largest accepted request body, in bytes. */
  HTTP_BODY_LIMIT: positiveInt(64 * 1024),
  /** Requests per token (or per client address without one) per window, shared across replicas. */
  RATE_LIMIT_MAX: positiveInt(1200),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(60),
  /**
   * Share of RATE_LIMIT_MAX a replica may admit per window before Redis hears of it (hits are sent
   * in batches); the limit can be exceeded by about this much per replica. 0: a round trip per request.
   */
  RATE_LIMIT_TOLERANCE: z.coerce.number().min(0).max(0.5).default(0.01),
  /** Seconds an authenticated token stays cached in-process; revocation also clears it at once. */
  TOKEN_CACHE_SECONDS: z.coerce.number().int().min(0).default(10),
  /** Relay safety-net poll for outbox rows a crash left unpublished (LISTEN/NOTIFY wakes it sooner). */
  OUTBOX_POLL_MS: positiveInt(5000),
  /** Password hashing cost (argon2id; OWASP: m=19456 KiB, t=2, p=1). */
  PASSWORD_HASH_MEMORY_KIB: positiveInt(19456),
  PASSWORD_HASH_ITERATIONS: positiveInt(2),
  AUTH_MAX_FAILURES: positiveInt(5),
  AUTH_LOCKOUT_SECONDS: positiveInt(900),
  /** 32-byte key (base64 or hex) that encrypts webhook signing secrets at rest. */
  WEBHOOK_SECRET_KEY: z.string().optional(),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool(false),
  /** Delays, in seconds, before each retry (Standard Webhooks recommends 5s 5m 30m 2h 5h 10h 10h). */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('5,300,1800,7200,18000,36000,36000')
    .refine(
      (v) => v.split(',').every((s) => /^\d+(\.\d+)?$/.test(s.trim())),
      'must be comma-separated seconds',
    ),
  WEBHOOK_TIMEOUT_MS: positiveInt(10000),
  WEBHOOK_CONCURRENCY: positiveInt(20),
  /** An endpoint failing with no success for this long is disabled automatically. */
  WEBHOOK_DISABLE_AFTER_HOURS: z.coerce.number().positive().default(120),
  WEBHOOK_SECRET_GRACE_HOURS: z.coerce.number().min(0).default(24),
  /** Endpoints a tenant may register: each is one delivery per event, so this bounds an event's fan-out. */
  WEBHOOK_MAX_ENDPOINTS_PER_TENANT: positiveInt(20),
  /** Interval of the reconciler that re-enqueues what Redis lost. */
  RECONCILE_INTERVAL_MS: positiveInt(30000),
  /** How long a published event may stay unprocessed before the outbox reconciler checks its job. */
  OUTBOX_RECONCILE_GRACE_SECONDS: z.coerce.number().min(0).default(30),
  /** Attempts of a domain-events job (exponential backoff from 1 s) before it lands in the failed set. */
  DOMAIN_EVENT_ATTEMPTS: positiveInt(12),
  /**
   * Processed outbox events older than this are deleted, once no delivery refers to them. Days;
   * fractions allowed (0.5 = 12 hours), so soak runs and tests can see retention apply.
   */
  OUTBOX_RETENTION_DAYS: z.coerce.number().positive().default(7),
  /** Long-polls of the event stream one notification-api process holds at once; beyond, 503. */
  EVENT_STREAM_MAX_WAITERS: positiveInt(100),
  /** Finished (succeeded or failed) deliveries older than this are deleted with their attempts. Days, fractions allowed. */
  DELIVERY_RETENTION_DAYS: z.coerce.number().positive().default(30),
  /** How often the notifier deletes what is past retention. */
  RETENTION_INTERVAL_MS: positiveInt(600_000),
  /** Redis keeps a completed job this long, or until the count cap pushes it out, whichever comes first. */
  QUEUE_COMPLETED_RETENTION_SECONDS: positiveInt(24 * 3600),
  /** Most completed jobs Redis keeps per queue; bounds Redis memory whatever the event rate. */
  QUEUE_COMPLETED_RETENTION_COUNT: positiveInt(50_000),
  /** Redis keeps a failed job this long, for operators to inspect in Bull Board. */
  QUEUE_FAILED_RETENTION_SECONDS: positiveInt(7 * 24 * 3600),
  /** The notification API's address as subscribers' browsers reach it, for portal links (default http://127.0.0.1:<port>). */
  PORTAL_PUBLIC_URL: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || /^https?:\/\/[^/?#]+\/?$/.test(v),
      'must be an http(s) origin, e.g. https://notify.example.com',
    ),
  /** Origins that may frame the portal (space-separated, e.g. https://app.example.com); none by default. */
  PORTAL_FRAME_ANCESTORS: z
    .string()
    .default('')
    .refine(
      (v) => v.split(/\s+/).every((o) => o === '' || /^https?:\/\/[A-Za-z0-9.*-]+(:\d+)?$/.test(o)),
      'must be origins separated by spaces',
    ),
  /**
   * Reverse proxies in front of the apps (comma-separated addresses, CIDR ranges, or loopback,
   * linklocal, uniquelocal): from them alone X-Forwarded-Proto and X-Forwarded-For are believed, so
   * behind a proxy that terminates TLS the portal's cookie is Secure and rate limits count the
   * client's address. None by default: those headers are ignored.
   */
  TRUST_PROXY: z
    .string()
    .default('')
    .refine(
      (v) => v.trim() === '' || v.split(',').every((a) => isProxyAddress(a.trim())),
      'must be IP addresses or CIDR ranges separated by commas (or loopback, linklocal, uniquelocal)',
    ),
  BULL_BOARD_USERNAME: z.string().min(1).default('admin'),
  BULL_BOARD_PASSWORD: z.string().optional(),
});

export type AppConfig = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Parses the environment; a wrong value throws a ConfigError naming every offending variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
