import { setTimeout as sleep } from 'node:timers/promises';
import { expectLedger } from './support/expect-ledger';
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
    // Answers cut off by the stop may be sent again: what was in flight counts as struck.
    await world.fault('receiver stopped', 'all', async () => {
      await world.receiver.stop();
      await sleep(4000);
      await world.receiver.listen();
    });
    world.receiver.setDefault({ status: 503, body: 'maintenance' });
    await sleep(4000);
    world.receiver.setDefault({ status: 200, body: 'ok' });
    await sleep(3000);
    await stream.stop();

    const settled = await world.settle('1 receiver down (refused, then 503)', stream);
    expectLedger(settled, stream, {
      statuses: [200],
      evidence: {
        'webhooks answered 503': world.receiver.received.filter((w) => w.answeredWith === 503).length,
      },
    });
  });
});
