import { FaultWorld } from './support/fault-world';

/**
 * The notifier dies by SIGKILL twice while it has deliveries in flight (the receiver takes 300 ms
 * to answer), and is started again each time: its jobs stall and are taken up again.
 */
describe('faults: notifier killed with deliveries in flight', () => {
  let world: FaultWorld;

  beforeAll(async () => {
    world = await FaultWorld.start();
    world.receiver.setDefault({ status: 200, body: 'ok', delayMs: 300 });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('delivers every acknowledged change after two crashes', async () => {
    const stream = world.changes();
    await world.crashNotifierTwice();
    await stream.stop();

    const { figures, missing } = await world.settle('2 notifier SIGKILLed twice', stream);
    expect(figures.acknowledged).toBeGreaterThan(100);
    expect(figures.unverified).toBe(0);
    expect(missing).toEqual([]);
  });
});
