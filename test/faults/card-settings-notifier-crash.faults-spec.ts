import { expectLedger } from './support/expect-ledger';
import { FaultWorld } from './support/fault-world';

/**
 * Card settings changes through card-api, each one CARD_SETTINGS_CHANGED, while the notifier dies
 * by SIGKILL twice with deliveries in flight (the receiver takes 300 ms to answer).
 */
const RECEIVER_DELAY_MS = 300;

describe('faults: card settings changes, notifier killed', () => {
  let world: FaultWorld;

  beforeAll(async () => {
    world = await FaultWorld.start({ cards: true });
    world.receiver.setDefault({ status: 200, body: 'ok', delayMs: RECEIVER_DELAY_MS });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('delivers every committed CARD_SETTINGS_CHANGED after two crashes', async () => {
    const stream = world.changes();
    await world.crashNotifierTwice();
    await stream.stop();

    const settled = await world.settle('11 card settings changes, notifier SIGKILLed twice', stream);
    expectLedger(settled, stream, {
      statuses: [200],
      evidence: world.killsMetWork(RECEIVER_DELAY_MS),
    });
  });
});
