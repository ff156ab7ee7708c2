/**
 * When to try a webhook again, and when to give up, as plain functions so they are tested
 * without a queue, a clock or a network.
 */

/** Share of the scheduled delay by which a retry moves either way, so failing receivers are not hit in lockstep. */
export const JITTER_RATIO = 0.2;
/** A Retry-After beyond this is treated as this: one receiver must not park a delivery for days. */
export const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

/** `5,300,1800` (seconds) -> delays in milliseconds before retry 1, 2, 3. */
export function parseRetrySchedule(setting: string): number[] {
  const delays = setting.split(',').map((s) => Math.round(Number(s.trim()) * 1000));
  if (!delays.length || delays.some((d) => !Number.isFinite(d) || d < 0)) {
    throw new Error(`Invalid retry schedule "${setting}": expected comma-separated seconds`);
  }
  return delays;
}

/**
 * Delay before the next try after `failedAttempts` failures in a row (1 = the first try failed),
 * or undefined when the schedule is exhausted. `random` is in [0, 1).
 */
export function backoffDelay(
  failedAttempts: number,
  scheduleMs: readonly number[],
  random: number = Math.random(),
): number | undefined {
  if (failedAttempts < 1 || failedAttempts > scheduleMs.length) return undefined;
  const base = scheduleMs[failedAttempts - 1];
  const jitter = base * JITTER_RATIO * (2 * random - 1);
  return Math.max(0, Math.round(base + jitter));
}

/** Retry-After as seconds or as an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: Date): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Math.min(Number(value) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - now.getTime()), MAX_RETRY_AFTER_MS);
}

export type AttemptResult =
  { kind: 'response'; statusCode: number; retryAfter?: string } | { kind: 'error'; message: string };

export type Decision =
  | { kind: 'succeeded' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'failed' }
  /** The receiver said 410 Gone: the subscription is over; disable the endpoint. */
  | { kind: 'endpoint_gone' };

export function isSuccess(statusCode: number): boolean {
  return statusCode >= 200 && statusCode < 300;
}

/** What follows an attempt; `cycleAttempts` counts attempts since the delivery was (re)started, this one included. */
export function decideAfterAttempt(input: {
  result: AttemptResult;
  cycleAttempts: number;
  scheduleMs: readonly number[];
  now: Date;
  random?: number;
}): Decision {
  const { result } = input;
  if (result.kind === 'response') {
    if (isSuccess(result.statusCode)) return { kind: 'succeeded' };
    if (result.statusCode === 410) return { kind: 'endpoint_gone' };
  }
  const scheduled = backoffDelay(input.cycleAttempts, input.scheduleMs, input.random);
  if (scheduled === undefined) return { kind: 'failed' };
  if (result.kind === 'response' && (result.statusCode === 429 || result.statusCode === 503)) {
    const asked = parseRetryAfter(result.retryAfter, input.now);
    // The receiver knows when it can take more; it may ask for longer or shorter than our schedule.
    if (asked !== undefined) return { kind: 'retry', delayMs: asked };
  }
  return { kind: 'retry', delayMs: scheduled };
}

/** An endpoint failing since `failingSince` with no success in between is disabled after `disableAfterHours`. */
export function shouldDisableEndpoint(
  failingSince: Date | null,
  now: Date,
  disableAfterHours: number,
): boolean {
  if (!failingSince) return false;
  return now.getTime() - failingSince.getTime() >= disableAfterHours * 3600 * 1000;
}
