import { setTimeout as sleep } from 'node:timers/promises';
import { FaultWorld } from './support/fault-world';

/**
 * Two notifiers share the queues; one dies by SIGKILL mid-stream and stays dead. Four deliveries
 * at a time each, against a receiver taking 200 ms, keep both of them busy.
 */
describe('faults: one of two notifiers killed', () => {
  let world: FaultWorld;

  beforeAll(async () => {
    world = await FaultWorld.start({ notifiers: 2, settings: { WEBHOOK_CONCURRENCY: '4' } });
    world.receiver.setDefault({ status: 200, body: 'ok', delayMs: 200 });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('the survivor delivers every acknowledged change, the dead one’s in-flight jobs too', async () => {
    const stream = world.changes();
    await sleep(5000);
    await world.killNotifier(world.notifiers[0]);
    await sleep(6000);
    await stream.stop();

    const { figures, missing } = await world.settle('5 one of two notifiers SIGKILLed', stream);
    expect(figures.acknowledged).toBeGreaterThan(100);
    expect(figures.unverified).toBe(0);
    expect(missing).toEqual([]);
  });
});
