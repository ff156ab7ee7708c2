import { expectLedger } from './support/expect-ledger';
import { FaultWorld } from './support/fault-world';

/**
 * The notifier dies by SIGKILL twice while it has deliveries in flight (the receiver takes 300 ms
 * to answer), and is started again each time: its jobs stall and are taken up again. Once under
 * person renames (PERSON_UPDATED through the credentials API), once under card settings changes
 * (CARD_SETTINGS_CHANGED through card-api).
 */
const RECEIVER_DELAY_MS = 300;

const streams: Array<[string, boolean, string]> = [
  ['person renames', false, '2 notifier SIGKILLed twice'],
  ['card settings changes', true, '11 card settings changes, notifier SIGKILLed twice'],
];

describe.each(streams)('faults: notifier killed with deliveries in flight, %s', (_name, cards, scenario) => {
  let world: FaultWorld;

  beforeAll(async () => {
    world = await FaultWorld.start({ cards });
    world.receiver.setDefault({ status: 200, body: 'ok', delayMs: RECEIVER_DELAY_MS });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('delivers every committed change after two crashes', async () => {
    const stream = world.changes();
    await world.crashNotifierTwice();
    await stream.stop();

    const settled = await world.settle(scenario, stream);
    expectLedger(settled, stream, {
      statuses: [200],
      evidence: world.killsMetWork(RECEIVER_DELAY_MS),
    });
  });
});
