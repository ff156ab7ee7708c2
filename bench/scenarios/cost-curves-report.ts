import { PointRun } from '../drivers/cost-curves';
import { Metric } from '../support/report';
import { BenchSettings } from '../support/settings';
import { ChartPanel, svgChart } from '../support/svg-chart';

export type CurveName = 'endpoints' | 'payload' | 'tenants';

/** One point of a curve: its load (x), and what it measured or why not. */
export interface CurvePoint {
  x: number;
  run?: PointRun;
  whyNot?: string;
}

export interface Curve {
  name: CurveName;
  points: CurvePoint[];
}

export const NO_BASELINE = 'no baseline for this curve';
/** Growth of CPU per webhook beyond the growth of the work per webhook (times this) is flagged. */
const GROWTH_TOLERANCE = 1.25;

const CURVES: Record<
  CurveName,
  { label: (x: number) => string; axis: string; title: string; work: (x: number) => number }
> = {
  endpoints: {
    label: (x) => `${x} endpoint${x === 1 ? '' : 's'} per event`,
    axis: 'endpoints per event',
    title: 'Fan-out',
    // One webhook is the same work whatever the fan-out: its cost should not grow.
    work: () => 1,
  },
  payload: {
    label: (x) => `${x} KB payload`,
    axis: 'payload (KB)',
    title: 'Payload size',
    work: (x) => x,
  },
  tenants: {
    label: (x) => `${x} tenant${x === 1 ? '' : 's'}, same total load`,
    axis: 'tenants sharing the load',
    title: 'Tenants',
    work: () => 1,
  },
};

const ms = (value: number, delivered: number) => (value / delivered).toFixed(2);

function pointNote(settings: BenchSettings, curve: CurveName, point: CurvePoint): string {
  const label = CURVES[curve].label(point.x);
  const run = point.run;
  if (!run) return `${label}: not measured (${point.whyNot})`;
  const parts = Object.entries(run.cpu.processes).map(([name, cpu]) => `${name} ${ms(cpu, run.delivered)}`);
  return (
    `${label}: ${run.delivered}/${run.expected} webhooks, ${run.ok}/${run.sent} events accepted; ` +
    `CPU ms per webhook: ${parts.join(', ')}, PostgreSQL backends ${ms(run.cpu.postgres, run.delivered)}` +
    (run.cpu.backendsEnded
      ? ` (${run.cpu.backendsEnded} backends ended during the point, counted up to their last sample)`
      : '') +
    (run.complete ? '' : ` — INCOMPLETE within ${settings.eventTimeoutSeconds} s`)
  );
}

interface Growth {
  from: number;
  to: number;
  /** CPU per webhook at `to` over that at `from`. */
  ratio: number;
  /** How much more work one webhook is at `to` than at `from`. */
  work: number;
  flagged: boolean;
}

/** CPU per webhook from one measured point to another, against the growth of the work per webhook. */
function growth(curve: Curve, from: CurvePoint, to: CurvePoint): Growth {
  const { work } = CURVES[curve.name];
  const ratio = to.run!.cpuPerWebhookMs / from.run!.cpuPerWebhookMs;
  const more = work(to.x) / work(from.x);
  return { from: from.x, to: to.x, ratio, work: more, flagged: ratio > GROWTH_TOLERANCE * more };
}

function growthNote(curve: Curve, g: Growth): string {
  const { label, title } = CURVES[curve.name];
  return (
    `${title}: CPU per webhook at ${label(g.to)} is ${g.ratio.toFixed(2)}x that at ${label(g.from)}, ` +
    `for ${g.work.toFixed(g.work < 10 ? 1 : 0)}x the work per webhook` +
    (g.flagged ? ' — GROWS FASTER THAN THE WORK' : '')
  );
}

/**
 * The curve's last point against its first (a row), and every step between measured points
 * that outgrew the work (notes): a cost can rise between two points and still end below the first.
 */
function growthRow(curve: Curve, row: (name: string, value: number, notes: string[]) => Metric): Metric[] {
  const measured = curve.points.filter((p) => p.run && p.run.delivered > 0);
  if (measured.length < 2) return [];
  const whole = growth(curve, measured[0], measured[measured.length - 1]);
  const steps = measured.slice(1).map((to, i) => growth(curve, measured[i], to));
  const notes = [whole, ...(measured.length > 2 ? steps.filter((g) => g.flagged) : [])].map((g) =>
    growthNote(curve, g),
  );
  return [row(`  CPU per webhook, ${whole.to} vs ${whole.from}`, whole.ratio, notes)];
}

/** Per point: delivered/s and CPU per webhook; per curve: the growth of CPU per webhook, flagged when it outgrows the work. */
export function curveRows(settings: BenchSettings, curves: Curve[]): Metric[] {
  const scenario = 'cost-curves';
  const notMeasured = NO_BASELINE;
  const row = (
    name: string,
    unit: string,
    higherIsBetter: boolean,
    value?: number,
    notes?: string[],
  ): Metric => ({
    scenario,
    name,
    unit,
    higherIsBetter,
    fincore: value ?? null,
    baseline: null,
    notMeasured,
    notes,
  });
  return curves.flatMap((curve) => {
    const { label } = CURVES[curve.name];
    const rows = curve.points.flatMap((point): Metric[] => {
      const own = { notMeasured: point.whyNot ?? notMeasured, suspect: point.run && !point.run.complete };
      const note = [pointNote(settings, curve.name, point)];
      return [
        {
          ...row(`${label(point.x)}: webhooks delivered/s`, '/s', true, point.run?.deliveredPerSecond, note),
          ...own,
        },
        {
          ...row(
            '  CPU per webhook (fincore + its PostgreSQL backends)',
            'ms',
            false,
            point.run?.cpuPerWebhookMs,
          ),
          ...own,
        },
      ];
    });
    return [...rows, ...growthRow(curve, (name, value, notes) => row(name, 'x', false, value, notes))];
  });
}

/** The curves as an SVG: delivered/s in the top row, CPU per webhook (total and its parts) below. */
export function curvesChart(curves: Curve[]): string {
  const measured = (curve: Curve, y: (run: PointRun) => number) =>
    curve.points.map((p): [number, number] => [p.x, p.run ? y(p.run) : NaN]);
  const rates: ChartPanel[] = curves.map((curve) => ({
    title: `${CURVES[curve.name].title}: webhooks delivered/s`,
    xLabel: CURVES[curve.name].axis,
    yLabel: 'webhooks/s',
    series: [{ label: 'delivered/s', points: measured(curve, (r) => r.deliveredPerSecond) }],
  }));
  const cpu: ChartPanel[] = curves.map((curve) => {
    const names = [...new Set(curve.points.flatMap((p) => Object.keys(p.run?.cpu.processes ?? {})))];
    return {
      title: `${CURVES[curve.name].title}: CPU per webhook`,
      xLabel: CURVES[curve.name].axis,
      yLabel: 'CPU ms per webhook',
      series: [
        { label: 'total', points: measured(curve, (r) => r.cpuPerWebhookMs) },
        ...names.map((name) => ({
          label: name,
          points: measured(curve, (r) => (r.cpu.processes[name] ?? NaN) / r.delivered),
        })),
        { label: 'PostgreSQL', points: measured(curve, (r) => r.cpu.postgres / r.delivered) },
      ],
    };
  });
  return svgChart('fincore cost curves (npm run bench, cost-curves)', [...rates, ...cpu], curves.length);
}
