/**
 * Recognises errors that say a dependency (PostgreSQL, Redis) is down, restarting, frozen or
 * overloaded, rather than that the request or our code is wrong. Such a request may succeed when
 * retried later, so it answers 503 with Retry-After instead of 500.
 */
export interface DependencyOutage {
  dependency: 'postgres' | 'redis' | 'network';
  /** The code or message that gave it away, for the log. */
  reason: string;
}

/** What a client is told to wait before retrying: about one restart of a dependency. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

const POSTGRES_STATES: Record<string, string> = {
  '57P01': 'admin_shutdown',
  '57P02': 'crash_shutdown',
  '57P03': 'cannot_connect_now',
  '57014': 'query_canceled (statement_timeout)',
  '55P03': 'lock_not_available (lock_timeout)',
  '53300': 'too_many_connections',
};

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

const POSTGRES_MESSAGES = [
  /^Connection terminated/, // unexpectedly, or due to connection timeout
  /timeout exceeded when trying to connect/,
  /is not queryable/,
  /^Query read timeout$/,
];

const REDIS_MESSAGES = [
  /^Connection is closed\.?$/,
  /^Command timed out$/,
  /^Reached the max retries per request limit/,
  /^Stream isn't writeable and enableOfflineQueue options is false$/,
  // Redis Cluster: no node reachable, slots being failed over or moved, the cluster refusing writes.
  /^Cluster isn't ready/,
  /^None of startup nodes is available$/,
  /^Failed to refresh slots cache/,
  /^Too many Cluster redirections/,
  /^CLUSTERDOWN /,
  /^TRYAGAIN /,
];

const REDIS_ERROR_NAMES = new Set(['MaxRetriesPerRequestError', 'ClusterAllFailedError']);

/** The outage an error reports, looking through wrappers (TypeORM's driverError, cause); else undefined. */
export function dependencyOutage(error: unknown): DependencyOutage | undefined {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length) {
    const current = pending.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const found = recognise(current as ErrorLike);
    if (found) return found;
    const { driverError, cause, errors } = current as ErrorLike;
    pending.push(driverError, cause, ...(Array.isArray(errors) ? errors : []));
  }
  return undefined;
}

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  name?: unknown;
  driverError?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function recognise(error: ErrorLike): DependencyOutage | undefined {
  const code = typeof error.code === 'string' ? error.code : undefined;
  const message = typeof error.message === 'string' ? error.message : '';
  if (code && POSTGRES_STATES[code])
    return { dependency: 'postgres', reason: `${code} ${POSTGRES_STATES[code]}` };
  if (code && /^08[0-9A-Z]{3}$/.test(code))
    return { dependency: 'postgres', reason: `${code} connection_exception` };
  if (code && NETWORK_CODES.has(code)) return { dependency: 'network', reason: code };
  if (POSTGRES_MESSAGES.some((m) => m.test(message))) return { dependency: 'postgres', reason: message };
  // TypeORM releases a transaction's query runner when its connection fails (e.g. a restart ends
  // the session); the transaction's next statement then finds the runner released.
  if (error.name === 'QueryRunnerAlreadyReleasedError') return { dependency: 'postgres', reason: message };
  if (REDIS_ERROR_NAMES.has(String(error.name)) || REDIS_MESSAGES.some((m) => m.test(message))) {
    return { dependency: 'redis', reason: message };
  }
  return undefined;
}
