import { expectLedger } from './support/expect-ledger';
import { FaultWorld } from './support/fault-world';

/**
 * The notifier dies by SIGKILL twice while it has deliveries in flight (the receiver takes 300 ms
 * to answer), and is started again each time: its jobs stall and are taken up again.
 */
const RECEIVER_DELAY_MS = 300;

describe('faults: notifier killed with deliveries in flight', () => {
  let world: FaultWorld;

  beforeAll(async () => {
    world = await FaultWorld.start();
    world.receiver.setDefault({ status: 200, body: 'ok', delayMs: RECEIVER_DELAY_MS });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('delivers every acknowledged change after two crashes', async () => {
    const stream = world.changes();
    await world.crashNotifierTwice();
    await stream.stop();

    const settled = await world.settle('2 notifier SIGKILLed twice', stream);
    expectLedger(settled, stream, {
      statuses: [200],
      evidence: world.killsMetWork(RECEIVER_DELAY_MS),
    });
  });
});
