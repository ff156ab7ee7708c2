import { setTimeout as sleep } from 'node:timers/promises';
import { answered, expectLedger } from './support/expect-ledger';
import { FaultWorld } from './support/fault-world';

/**
 * The credentials API dies by SIGKILL twice with renames in flight, and another takes its place
 * each time. A rename it committed before dying has no answer, yet its event is in the outbox and
 * must reach the subscriber like any other; the outbox reconciler finds those whose job was never
 * enqueued.
 */
describe('faults: credentials API killed mid-stream', () => {
  let world: FaultWorld;

  beforeAll(async () => {
    world = await FaultWorld.start();
  });
  afterAll(async () => {
    await world?.close();
  });

  it('delivers every committed change, answered or not', async () => {
    const stream = world.changes();
    for (const _ of [1, 2]) {
      await sleep(3000);
      await world.crashCredentialsApi(stream);
    }
    await sleep(3000);
    await stream.stop();

    const settled = await world.settle(
      '10 credentials-api SIGKILLed twice',
      stream,
      undefined,
      () => `${stream.cut} requests cut off, ${answered(stream, 0)} without an answer`,
    );
    expectLedger(settled, stream, {
      // No answer: cut off by the kill, or refused until the new process listens.
      statuses: [200, 0],
      evidence: { 'requests cut off by a kill': stream.cut },
    });
  });
});
