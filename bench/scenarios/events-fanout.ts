import { driveEvents, FANOUT_ENDPOINTS } from '../drivers/events';
import { EventLoadScenario, NO_PERSONS, runNote } from './event-load';
import { log } from './scenario';

/** Person changes delivered to FANOUT_ENDPOINTS endpoints each, closed loop as the events scenario. */
export const eventsFanout: EventLoadScenario = {
  name: 'events-fanout',
  unavailable: (ctx) => (ctx.persons ? undefined : NO_PERSONS),
  async run(system) {
    const { settings } = system.ctx;
    const ids = system.measurable.slice(0, settings.fanoutEvents);
    const paths = Array.from({ length: FANOUT_ENDPOINTS }, (_, i) => `/${system.name}-fan-${i}`);
    await system.prepare(paths, 'fan');
    log(`events-fanout: ${system.name}, ${ids.length} changes to ${FANOUT_ENDPOINTS} endpoints each`);
    return driveEvents({ ...system.drive(paths, ids, 'fan '), connections: settings.eventConnections });
  },
  rows: ({ fincore, baseline }, notMeasured, { settings }) => [
    {
      scenario: 'events-fanout',
      name: `events x ${FANOUT_ENDPOINTS} endpoints -> webhooks delivered/s`,
      unit: '/s',
      higherIsBetter: true,
      fincore: fincore?.deliveredPerSecond ?? null,
      baseline: baseline?.deliveredPerSecond ?? null,
      notMeasured,
      notes: [...runNote(settings, 'fincore', fincore), ...runNote(settings, 'baseline', baseline)],
    },
  ],
};
