/** The windows the delivery statistics cover, and how many hours each is. */
export const STATS_WINDOWS = ['24h', '7d'] as const;
export type StatsWindow = (typeof STATS_WINDOWS)[number];

const HOURS: Record<StatsWindow, number> = { '24h': 24, '7d': 7 * 24 };

export function hoursOf(window: StatsWindow): number {
  return HOURS[window];
}

const HOUR_MS = 3_600_000;

/** Start of the first of the window's whole UTC hours, the last being the one holding `now`. */
export function windowStart(window: StatsWindow, now: Date): Date {
  const currentHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return new Date(currentHour - (hoursOf(window) - 1) * HOUR_MS);
}

export interface HourCounts {
  succeeded: number;
  failed: number;
  pending: number;
}

/** The window's sums: what a chart's legend shows. */
export function totalOf(hours: readonly HourCounts[]): HourCounts {
  return hours.reduce(
    (sum, h) => ({
      succeeded: sum.succeeded + h.succeeded,
      failed: sum.failed + h.failed,
      pending: sum.pending + h.pending,
    }),
    { succeeded: 0, failed: 0, pending: 0 },
  );
}
