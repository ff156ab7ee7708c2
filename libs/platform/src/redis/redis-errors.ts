import { Logger } from '@nestjs/common';

/** While Redis is away a connection fails every reconnect (a few per second): one line per interval is enough. */
export const CONNECTION_ERROR_LOG_INTERVAL_MS = 10_000;

/**
 * A connection's `error` handler that reports through `warn`: the first error at once, then at most
 * one per interval, saying how many it left out. Without a handler ioredis and BullMQ write every
 * failed reconnect to stderr as plain text.
 */
export function connectionErrorLog(
  what: string,
  warn: (message: string) => void,
  intervalMs = CONNECTION_ERROR_LOG_INTERVAL_MS,
  now: () => number = Date.now,
): (error: Error) => void {
  let lastAt = -Infinity;
  let left = 0;
  return (error) => {
    const at = now();
    if (at - lastAt < intervalMs) {
      left++;
      return;
    }
    warn(`${what}: ${error.message}${left ? ` (and ${left} more errors since the last report)` : ''}`);
    lastAt = at;
    left = 0;
  };
}

/** Something that emits connection errors: an ioredis client or cluster, a BullMQ queue or worker. */
export interface ErrorEmitter {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Sends `emitter`'s errors to the app's logger, rate-limited. Returns the emitter. */
export function logConnectionErrors<T extends ErrorEmitter>(
  emitter: T,
  what: string,
  logger = new Logger('Redis'),
): T {
  emitter.on(
    'error',
    connectionErrorLog(what, (message) => logger.warn(message)),
  );
  return emitter;
}
