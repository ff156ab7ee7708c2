/**
 * How `migrate` waits for a PostgreSQL that is still starting, as in a container stack where the
 * CLI can start before the database accepts connections: retry with backoff, within a bound.
 */
export interface WaitPolicy {
  /** Pause after the first failed attempt; each further one doubles, up to maxDelayMs. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** Total time spent waiting before giving up with the last error. */
  totalMs: number;
}

export const DATABASE_WAIT: WaitPolicy = { firstDelayMs: 500, maxDelayMs: 5_000, totalMs: 60_000 };

/**
 * The pause after failed attempt `attempt` (1, 2, …) when `waitedMs` have passed since the first
 * one began, or undefined when the bound is spent. The last pause is cut to end at the bound.
 */
export function nextWait(
  attempt: number,
  waitedMs: number,
  policy: WaitPolicy = DATABASE_WAIT,
): number | undefined {
  const left = policy.totalMs - waitedMs;
  if (left <= 0) return undefined;
  const delay = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.min(delay, left);
}

/** Errors of a server that is not (yet) reachable or still starting up, as opposed to a wrong setting. */
const NOT_YET_REACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P03', // cannot_connect_now: the database system is starting up
]);

/**
 * Whether an error means "try again later". Wrong credentials or a missing database are not:
 * retrying those would only delay the message that says what to fix.
 */
export function isNotYetReachable(error: unknown): boolean {
  if (error instanceof AggregateError && error.errors.some(isNotYetReachable)) return true;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && NOT_YET_REACHABLE.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /connection terminated|connection timeout|timeout expired/i.test(message);
}

/** A short reason for the wait line: the error code when there is one. */
export function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && code) return code;
  return error instanceof Error ? error.message : String(error);
}

export interface WaitClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: WaitClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Runs `attempt` until it succeeds, retrying errors of a server not yet reachable after the pauses
 * of the policy (time spent in attempts counts towards the bound) and calling `onWait` once before each pause; any other error, or the last one
 * when the bound is spent, is thrown.
 */
export async function untilReachable<T>(
  attempt: () => Promise<T>,
  onWait: (error: unknown, delayMs: number) => void,
  clock: WaitClock = realClock,
  policy: WaitPolicy = DATABASE_WAIT,
): Promise<T> {
  const start = clock.now();
  for (let failures = 1; ; failures++) {
    try {
      return await attempt();
    } catch (error) {
      const delay = isNotYetReachable(error) ? nextWait(failures, clock.now() - start, policy) : undefined;
      if (delay === undefined) throw error;
      onWait(error, delay);
      await clock.sleep(delay);
    }
  }
}
