import type { ReceivedWebhook } from './webhook-receiver';

/** A stretch of time in receiver milliseconds, from `from` up to `to`. */
export interface Stretch {
  from: number;
  to: number;
}

/**
 * The most arrivals any window of `windowMs` at the receiver holds (each window starting at an
 * arrival), leaving out windows that overlap one of `excluding`, and when that busiest window began.
 */
export function busiestWindow(
  webhooks: readonly ReceivedWebhook[],
  windowMs: number,
  excluding: readonly Stretch[] = [],
): { count: number; at?: number } {
  const times = webhooks.map((w) => w.receivedAt.getTime()).sort((a, b) => a - b);
  let busiest: { count: number; at?: number } = { count: 0 };
  let end = 0;
  for (let start = 0; start < times.length; start++) {
    const t = times[start];
    while (end < times.length && times[end] < t + windowMs) end++;
    if (excluding.some((s) => s.from < t + windowMs && s.to >= t)) continue;
    if (end - start > busiest.count) busiest = { count: end - start, at: t };
  }
  return busiest;
}

/**
 * How far sends run ahead of one per `intervalMs` (times in ms, in any order): the most, over every
 * pair, by which they are closer together than their number of intervals. Jitter moves single sends
 * and does not add up; a pace faster than the interval adds up over a run.
 */
export function aheadOfPace(times: readonly number[], intervalMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let ahead = 0;
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      ahead = Math.max(ahead, (j - i) * intervalMs - (sorted[j] - sorted[i]));
    }
  }
  return ahead;
}

/**
 * Arrivals that came while a receiver's 429/503 with Retry-After held the endpoint back: from each
 * such answer (as the receiver gave it) for its Retry-After seconds. An arrival within `inFlightMs`
 * of the answer counts as in flight (sent before the notifier could read the answer and pause the
 * endpoint), not as a breach.
 */
export function arrivalsDuringPauses(
  webhooks: readonly ReceivedWebhook[],
  inFlightMs: number,
): { breaches: ReceivedWebhook[]; inFlight: number; pausedBy: number } {
  const pauses = webhooks
    .filter((w) => (w.answeredWith === 429 || w.answeredWith === 503) && w.answeredRetryAfter)
    .map((w) => ({
      from: w.receivedAt.getTime(),
      to: w.receivedAt.getTime() + w.answeredRetryAfter! * 1000,
    }));
  const breaches: ReceivedWebhook[] = [];
  let inFlight = 0;
  for (const w of webhooks) {
    const t = w.receivedAt.getTime();
    const within = pauses.filter((p) => p.from < t && t < p.to);
    if (!within.length) continue;
    if (within.every((p) => t - p.from <= inFlightMs)) inFlight++;
    else breaches.push(w);
  }
  return { breaches, inFlight, pausedBy: pauses.length };
}
