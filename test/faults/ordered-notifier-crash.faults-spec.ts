import { checkSubjectOrder } from '../support/ordered-webhooks';
import { expectLedger } from './support/expect-ledger';
import { FaultWorld } from './support/fault-world';

/**
 * As the notifier crash scenario, with the endpoint ordered per subject: the notifier dies by
 * SIGKILL twice with deliveries in flight. Nothing acknowledged is lost, and per person the
 * receiver sees the renames in the order they were acknowledged, numbered 1, 2, 3… without gaps,
 * repeats only as re-deliveries of the same webhook-id.
 */
const SETTLE_TIMEOUT_MS = 200_000;
const RECEIVER_DELAY_MS = 100;

describe('faults: notifier killed with an ordered endpoint', () => {
  let world: FaultWorld;

  beforeAll(async () => {
    world = await FaultWorld.start({ endpoint: { ordering: 'SUBJECT' } });
    world.receiver.setDefault({ status: 200, body: 'ok', delayMs: RECEIVER_DELAY_MS });
  });
  afterAll(async () => {
    await world?.close();
  });

  it(
    'delivers every acknowledged change, in order per person, after two crashes',
    async () => {
      const stream = world.changes();
      await world.crashNotifierTwice();
      await stream.stop();

      // One subject's renames go one at a time, so the backlog the crashes leave drains slower than in parallel.
      const settled = await world.settle(
        '7 ordered endpoint, notifier SIGKILLed twice',
        stream,
        SETTLE_TIMEOUT_MS,
      );
      expectLedger(settled, stream, {
        statuses: [200],
        evidence: world.killsMetWork(RECEIVER_DELAY_MS),
      });

      const { violations, bySubject } = checkSubjectOrder(world.receiver.received);
      expect(violations).toEqual([]);
      // Each loop renames its person c1, c2, c3… one request after the other: that is commit order.
      const renames = new Map<string, number[]>();
      for (const w of world.receiver.received.filter((r) => r.answeredWith < 300)) {
        const names = renames.get(w.json.data.personId) ?? [];
        const n = Number(String(w.json.data.person.firstName).slice(1));
        if (names[names.length - 1] !== n) names.push(n);
        renames.set(w.json.data.personId, names);
      }
      for (const [personId, names] of renames) {
        expect(names).toEqual([...names].sort((a, b) => a - b));
        expect(bySubject.get(`person:${personId}`)?.ids).toHaveLength(names.length);
      }
    },
    120_000 + SETTLE_TIMEOUT_MS,
  );
});
