import { driveEvents } from '../drivers/events';
import { EventLoadScenario, NO_PERSONS, runNote, withStages } from './event-load';
import { latencyRow, log } from './scenario';

/** Person changes sent one at a time (the next once the previous was answered), one endpoint. */
export const eventsSerial: EventLoadScenario = {
  name: 'events-serial',
  unavailable: (ctx) => (ctx.persons ? undefined : NO_PERSONS),
  async run(system) {
    const ids = system.measurable.slice(0, system.ctx.settings.serialEvents);
    const paths = [`/${system.name}-serial`];
    await system.prepare(paths, 'serial');
    const since = new Date();
    log(`events-serial: ${system.name}, ${ids.length} changes one at a time`);
    const run = await driveEvents({ ...system.drive(paths, ids, 'serial '), connections: 1 });
    // Nothing queues here: the stages are each hop's own cost.
    return withStages(system, paths[0], since, run);
  },
  rows({ fincore, baseline }, notMeasured, { settings }) {
    const row = latencyRow('events-serial', notMeasured);
    return [
      row('one at a time: API response -> webhook p50', fincore?.p50Ms, baseline?.p50Ms, [
        ...runNote(settings, 'fincore', fincore),
        ...(fincore?.stages ? [`fincore: ${fincore.stages}`] : []),
        ...runNote(settings, 'baseline', baseline),
      ]),
      row('one at a time: API response -> webhook p99', fincore?.p99Ms, baseline?.p99Ms),
    ];
  },
};
