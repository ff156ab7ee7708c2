import { setTimeout as sleep } from 'node:timers/promises';
import { FaultWorld } from './support/fault-world';

/**
 * PostgreSQL crashes under load (immediate stop: no checkpoint, what was not flushed is gone) and
 * starts again after recovery. The notifier commits without waiting for the WAL flush, so its last
 * claims, deliveries and attempts may be lost while their jobs completed; the APIs' changes, which
 * wait for it, are not. The reconcilers hand the lost work out again: every acknowledged change
 * still reaches the receiver.
 */
describe('faults: PostgreSQL crashed and recovered', () => {
  let world: FaultWorld;

  beforeAll(async () => {
    world = await FaultWorld.start();
  });
  afterAll(async () => {
    await world?.close();
  });

  it('answers only 2xx or 503 and delivers every acknowledged change', async () => {
    const stream = world.changes();
    await sleep(3000);
    await world.postgres.stop('immediate');
    await sleep(2000);
    await world.postgres.restart();
    await sleep(4000);
    await stream.stop();

    const { figures, missing } = await world.settle('9 PostgreSQL crashed, recovered 2 s later', stream);
    expect(figures.acknowledged).toBeGreaterThan(100);
    expect({ statuses: stream.unexpectedStatuses(), answers: stream.unexpected }).toEqual({
      statuses: {},
      answers: [],
    });
    expect(figures.unverified).toBe(0);
    expect(missing).toEqual([]);
  });
});
