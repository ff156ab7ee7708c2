/** One line of the result table: a figure for fincore and for the bare baseline, or why there is none. */
export interface Metric {
  scenario: string;
  name: string;
  unit: string;
  /** true: higher is better (throughput); false: lower is better (latency, memory). */
  higherIsBetter: boolean;
  fincore: number | null;
  baseline: number | null;
  /** Why a figure is missing (then it is printed instead of a number). */
  notMeasured?: string;
  /** Remarks printed under the table (errors, incomplete runs). */
  notes?: string[];
  /** The fincore figure was measured, but on a run that misbehaved (see the notes): printed with a "!". */
  suspect?: boolean;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

function format(value: number | null, unit: string): string {
  if (value === null || !Number.isFinite(value)) return '-';
  if (unit === 'MiB') return `${(value / 1024 / 1024).toFixed(1)} MiB`;
  if (unit === 'x') return `${value.toFixed(2)}x`;
  if (unit === 'ms') return `${value.toFixed(value < 10 ? 2 : 1)} ms`;
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${unit}`;
}

/**
 * fincore / baseline for throughput, baseline / fincore for latency and memory: below 1 always
 * means fincore is slower or heavier than the bare baseline, "0.50x" = half as good.
 */
export function ratio(metric: Metric): string {
  const { fincore, baseline } = metric;
  if (
    fincore === null ||
    baseline === null ||
    !Number.isFinite(fincore) ||
    !Number.isFinite(baseline) ||
    fincore <= 0 ||
    baseline <= 0
  )
    return '-';
  const r = metric.higherIsBetter ? fincore / baseline : baseline / fincore;
  return `${r.toFixed(r < 0.1 ? 3 : 2)}x`;
}

export function renderTable(metrics: readonly Metric[]): string {
  const rows = metrics.map((m) => [
    `${m.name}`,
    m.notMeasured && m.fincore === null
      ? `not measured (${m.notMeasured})`
      : `${format(m.fincore, m.unit)}${m.suspect && m.fincore !== null ? ' !' : ''}`,
    m.notMeasured && m.baseline === null && m.fincore !== null
      ? `not measured (${m.notMeasured})`
      : format(m.baseline, m.unit),
    ratio(m),
  ]);
  const header = ['metric', 'fincore', 'baseline', 'ratio'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
