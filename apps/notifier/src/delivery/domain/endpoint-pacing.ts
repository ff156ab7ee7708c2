/**
 * How fast one endpoint may receive, as plain functions: the spacing its rate limit asks for, and
 * the pause a receiver asks for with Retry-After on 429 or 503. The shared state (next free slot,
 * pause) lives in Redis so every notifier replica obeys the same limit.
 */
import { AttemptResult, parseRetryAfter } from './retry-policy';

/** Milliseconds between two deliveries to an endpoint limited to `rateLimit` per second; 0: unlimited. */
export function slotIntervalMs(rateLimit: number | null): number {
  if (rateLimit === null) return 0;
  if (!Number.isInteger(rateLimit) || rateLimit < 1) throw new RangeError(`Invalid rate limit ${rateLimit}`);
  // Rounded up: a slot a fraction of a millisecond late never lets more than the limit through.
  return Math.ceil(1000 / rateLimit);
}

/**
 * How long the whole endpoint waits after this answer: a receiver saying 429 or 503 with
 * Retry-After is overloaded, so its other queued deliveries must not hit it either. Undefined: no pause.
 */
export function endpointPauseMs(result: AttemptResult, now: Date): number | undefined {
  if (result.kind !== 'response' || (result.statusCode !== 429 && result.statusCode !== 503))
    return undefined;
  const asked = parseRetryAfter(result.retryAfter, now);
  return asked && asked > 0 ? asked : undefined;
}

/** The pacer's answer: send now, or wait until `at` (in the local clock) without spending an attempt. */
export type PaceDecision = { kind: 'send' } | { kind: 'wait'; at: Date };

/**
 * Turns the slot the pacer reserved (in Redis time) into a decision in the local clock, so a worker
 * whose clock is off from Redis's still waits the right duration.
 */
export function paceDecision(slotAt: number, redisNow: number, localNow: number): PaceDecision {
  const waitMs = slotAt - redisNow;
  return waitMs <= 0 ? { kind: 'send' } : { kind: 'wait', at: new Date(localNow + waitMs) };
}
