/** One hour's counts, as the stats operation answers them. */
export interface HourBar {
  hour: string;
  succeeded: number;
  failed: number;
  pending: number;
}

export interface BarSegment {
  outcome: 'succeeded' | 'failed' | 'pending';
  x: number;
  y: number;
  width: number;
  height: number;
}

const OUTCOMES = ['succeeded', 'failed', 'pending'] as const;

/**
 * Stacked bars for a plain SVG chart: one column per hour, heights scaled to the busiest hour,
 * succeeded at the bottom. Empty segments are left out.
 */
export function stackedBars(hours: readonly HourBar[], width: number, height: number): BarSegment[] {
  const peak = Math.max(1, ...hours.map((h) => h.succeeded + h.failed + h.pending));
  const column = hours.length ? width / hours.length : 0;
  const gap = column > 4 ? 1 : 0;
  const segments: BarSegment[] = [];
  hours.forEach((h, i) => {
    let top = height;
    for (const outcome of OUTCOMES) {
      const size = (h[outcome] / peak) * height;
      if (size <= 0) continue;
      top -= size;
      segments.push({ outcome, x: i * column, y: top, width: column - gap, height: size });
    }
  });
  return segments;
}

/** The busiest hour's total: the chart's scale. */
export function peakOf(hours: readonly HourBar[]): number {
  return Math.max(0, ...hours.map((h) => h.succeeded + h.failed + h.pending));
}
