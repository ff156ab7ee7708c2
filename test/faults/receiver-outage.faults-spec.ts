import { setTimeout as sleep } from 'node:timers/promises';
import { FaultWorld } from './support/fault-world';

/** The subscriber's receiver refuses connections, then answers 503, then comes back. */
describe('faults: receiver down for a stretch', () => {
  let world: FaultWorld;

  beforeAll(async () => {
    world = await FaultWorld.start();
  });
  afterAll(async () => {
    await world?.close();
  });

  it('delivers every acknowledged change once the receiver is back', async () => {
    const stream = world.changes();
    await sleep(3000);
    await world.receiver.stop();
    await sleep(4000);
    await world.receiver.listen();
    world.receiver.setDefault({ status: 503, body: 'maintenance' });
    await sleep(4000);
    world.receiver.setDefault({ status: 200, body: 'ok' });
    await sleep(3000);
    await stream.stop();

    const { figures, missing } = await world.settle('1 receiver down (refused, then 503)', stream);
    expect(figures.acknowledged).toBeGreaterThan(100);
    expect(figures.unverified).toBe(0);
    expect(missing).toEqual([]);
  });
});
