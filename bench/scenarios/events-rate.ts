import { driveEventsAtRate, RateRun } from '../drivers/events';
import { BenchContext, latencyRow, log } from './scenario';
import { EventLoadScenario, NO_PERSONS, runNote, withStages } from './event-load';

/** Changes per second offered: BENCH_RATE_PERCENT of what the baseline delivered in the events scenario. */
const offered = (ctx: BenchContext) => ((ctx.baselineCapacity ?? 0) * ctx.settings.ratePercent) / 100;

const keptUp = (run: RateRun) =>
  `${run.deliveredPerSecond.toFixed(0)}/s delivered of ${run.offeredPerSecond.toFixed(0)}/s offered, ` +
  `backlog drained ${run.drainMs.toFixed(0)} ms after the last answer` +
  (run.complete && run.deliveredPerSecond >= 0.95 * run.offeredPerSecond ? ' (kept up)' : ' (FELL BEHIND)');

/**
 * Person changes offered at a fixed rate whatever the answers (open loop), one endpoint: as many as
 * that rate sends in BENCH_SECONDS, within the persons there are.
 */
export const eventsRate: EventLoadScenario<RateRun> = {
  name: 'events-rate',
  unavailable: (ctx) =>
    !ctx.persons
      ? NO_PERSONS
      : ctx.baselineCapacity === undefined
        ? "the baseline's delivery capacity was not measured (events scenario)"
        : undefined,
  async run(system) {
    const perSecond = offered(system.ctx);
    const ids = system.measurable.slice(0, Math.max(1, Math.round(perSecond * system.ctx.settings.seconds)));
    const paths = [`/${system.name}-rate`];
    await system.prepare(paths, 'rate');
    const since = new Date();
    log(`events-rate: ${system.name}, ${ids.length} changes at ${perSecond.toFixed(0)}/s`);
    const run = await driveEventsAtRate({ ...system.drive(paths, ids, 'rate '), perSecond });
    return withStages(system, paths[0], since, run);
  },
  rows({ fincore, baseline }, notMeasured, { settings }) {
    const scenario = 'events-rate';
    const notes = [
      ...runNote(settings, 'fincore', fincore),
      ...(fincore ? [`fincore: ${keptUp(fincore)}`] : []),
      ...(fincore?.stages ? [`fincore: ${fincore.stages}`] : []),
      ...runNote(settings, 'baseline', baseline),
      ...(baseline ? [`baseline: ${keptUp(baseline)}`] : []),
    ];
    const row = latencyRow(scenario, notMeasured);
    return [
      {
        scenario,
        name: `events at ${settings.ratePercent}% of baseline capacity: delivered/s`,
        unit: '/s',
        higherIsBetter: true,
        fincore: fincore?.deliveredPerSecond ?? null,
        baseline: baseline?.deliveredPerSecond ?? null,
        notMeasured,
        notes,
      },
      row('  API response -> webhook p50', fincore?.p50Ms, baseline?.p50Ms),
      row('  API response -> webhook p99', fincore?.p99Ms, baseline?.p99Ms),
    ];
  },
};
