import { setTimeout as sleep } from 'node:timers/promises';
import { answered, expectLedger } from './support/expect-ledger';
import { FaultWorld } from './support/fault-world';

/**
 * PostgreSQL goes away under a steady stream of changes, each scenario on a PostgreSQL of its own.
 * Callers may see 503 while it is away, and nothing else but 2xx; every acknowledged change is
 * delivered.
 */
const scenarios: Array<[string, string, (world: FaultWorld) => Promise<void>]> = [
  [
    // Sessions end, connections are refused meanwhile; then it hangs: SIGSTOP, later SIGCONT.
    'restarted, then frozen',
    '4 PostgreSQL restarted, then frozen 4 s',
    async (world) => {
      await world.fault('PostgreSQL restarted', 'all', () => world.postgres.restart());
      await sleep(4000);
      await world.fault('PostgreSQL frozen', 'all', async () => {
        await world.postgres.freeze();
        try {
          await sleep(4000);
        } finally {
          world.postgres.thaw();
        }
      });
    },
  ],
  [
    // Immediate stop: no checkpoint, what was not flushed is gone. The notifier commits without
    // waiting for the flush, so its last claims and attempt records may be lost while their jobs
    // completed; the reconcilers hand that work out again. The APIs' commits wait for it.
    'crashed, then recovered',
    '9 PostgreSQL crashed, recovered 2 s later',
    async (world) => {
      await world.fault('PostgreSQL crashed', 'all', async () => {
        await world.postgres.stop('immediate');
        await sleep(2000);
        await world.postgres.restart();
      });
    },
  ],
];

describe.each(scenarios)('faults: PostgreSQL %s', (_name, scenario, fault) => {
  let world: FaultWorld;

  beforeAll(async () => {
    world = await FaultWorld.start();
  });
  afterAll(async () => {
    await world?.close();
  });

  it('answers only 2xx or 503 and delivers every acknowledged change', async () => {
    const stream = world.changes();
    await sleep(3000);
    await fault(world);
    await sleep(4000);
    await stream.stop();

    const settled = await world.settle(scenario, stream);
    expect(stream.unexpected).toEqual([]);
    expectLedger(settled, stream, {
      statuses: [200, 503],
      evidence: { '503 answers': answered(stream, 503) },
    });
  });
});
