import { setTimeout as sleep } from 'node:timers/promises';
import { expectLedger } from './support/expect-ledger';
import { FaultWorld } from './support/fault-world';

/**
 * Two notifiers share the queues; one dies by SIGKILL mid-stream and stays dead. Four deliveries
 * at a time each, against a receiver taking 200 ms, keep both of them busy.
 */
const RECEIVER_DELAY_MS = 200;

describe('faults: one of two notifiers killed', () => {
  let world: FaultWorld;

  beforeAll(async () => {
    world = await FaultWorld.start({ notifiers: 2, settings: { WEBHOOK_CONCURRENCY: '4' } });
    world.receiver.setDefault({ status: 200, body: 'ok', delayMs: RECEIVER_DELAY_MS });
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

    const settled = await world.settle('5 one of two notifiers SIGKILLed', stream);
    // The receiver sees both notifiers' requests: those of the last 200 ms were in flight at the kill.
    expectLedger(settled, stream, {
      statuses: [200],
      evidence: world.killsMetWork(RECEIVER_DELAY_MS),
    });
  });
});
