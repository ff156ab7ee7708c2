import { setTimeout as sleep } from 'node:timers/promises';
import { FaultWorld } from './support/fault-world';

/**
 * PostgreSQL restarts (sessions end, connections refused meanwhile), then hangs: SIGSTOP for a few
 * seconds, then SIGCONT. Callers may see 503 while it is away, and nothing else but 2xx.
 */
describe('faults: PostgreSQL restarted, then frozen', () => {
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
    await world.postgres.restart();
    await sleep(4000);
    await world.postgres.freeze();
    try {
      await sleep(4000);
    } finally {
      world.postgres.thaw();
    }
    await sleep(4000);
    await stream.stop();

    const { figures, missing } = await world.settle('4 PostgreSQL restarted, then frozen 4 s', stream);
    expect(figures.acknowledged).toBeGreaterThan(100);
    expect({ statuses: stream.unexpectedStatuses(), answers: stream.unexpected }).toEqual({
      statuses: {},
      answers: [],
    });
    expect(figures.unverified).toBe(0);
    expect(missing).toEqual([]);
  });
});
