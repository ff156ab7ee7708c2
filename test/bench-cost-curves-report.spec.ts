import { PointRun } from '../bench/drivers/cost-curves';
import { Curve, curveRows as sut } from '../bench/scenarios/cost-curves-report';
import { loadBenchSettings } from '../bench/support/settings';

const settings = loadBenchSettings();
const run = (cpuPerWebhookMs: number, complete = true): PointRun => ({
  sent: 100,
  ok: 100,
  expected: 100,
  delivered: 100,
  deliveredPerSecond: 50,
  cpu: {
    processes: { notifier: cpuPerWebhookMs * 100 },
    postgres: 0,
    backendsEnded: 0,
    total: cpuPerWebhookMs * 100,
  },
  cpuPerWebhookMs,
  complete,
});
const curve = (name: Curve['name'], points: Array<[number, number]>): Curve => ({
  name,
  points: points.map(([x, cpu]) => ({ x, run: run(cpu) })),
});
const notes = (curves: Curve[]) => sut(settings, curves).flatMap((m) => m.notes ?? []);

describe('curveRows (cost curves report)', () => {
  it('reports each point with no baseline, and the last point against the first', () => {
    const rows = sut(settings, [
      curve('endpoints', [
        [1, 2],
        [10, 1],
        [100, 0.5],
      ]),
    ]);

    expect(rows.map((r) => [r.name, r.fincore])).toEqual([
      ['1 endpoint per event: webhooks delivered/s', 50],
      ['  CPU per webhook (fincore + its PostgreSQL backends)', 2],
      ['10 endpoints per event: webhooks delivered/s', 50],
      ['  CPU per webhook (fincore + its PostgreSQL backends)', 1],
      ['100 endpoints per event: webhooks delivered/s', 50],
      ['  CPU per webhook (fincore + its PostgreSQL backends)', 0.5],
      ['  CPU per webhook, 100 vs 1', 0.25],
    ]);
    expect(rows.every((r) => r.baseline === null && r.notMeasured === 'no baseline for this curve')).toBe(
      true,
    );
    expect(
      notes([
        curve('endpoints', [
          [1, 2],
          [10, 1],
          [100, 0.5],
        ]),
      ]).join(),
    ).not.toContain('GROWS');
  });

  it('flags a step that outgrows the work, even when the curve ends below its first point', () => {
    const flagged = notes([
      curve('endpoints', [
        [1, 2],
        [10, 0.5],
        [100, 1],
      ]),
    ]).filter((n) => n.includes('GROWS FASTER THAN THE WORK'));

    expect(flagged).toEqual([
      expect.stringContaining('at 100 endpoints per event is 2.00x that at 10 endpoints'),
    ]);
  });

  it('weighs payload growth against the growth of the bytes', () => {
    expect(
      notes([
        curve('payload', [
          [1, 1],
          [64, 10],
        ]),
      ]).join(),
    ).not.toContain('GROWS');
    expect(
      notes([
        curve('payload', [
          [1, 1],
          [16, 30],
        ]),
      ]).join(),
    ).toContain('GROWS FASTER THAN THE WORK');
  });

  it('says why a point was not measured, and marks an incomplete one', () => {
    const rows = sut(settings, [
      {
        name: 'tenants',
        points: [
          { x: 1, whyNot: 'set-up failed' },
          { x: 100, run: run(1, false) },
        ],
      },
    ]);

    expect(rows[0]).toMatchObject({ fincore: null, notMeasured: 'set-up failed' });
    expect(rows[2]).toMatchObject({ fincore: 50, suspect: true });
    expect(rows).toHaveLength(4);
  });
});
