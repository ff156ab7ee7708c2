import { setTimeout as sleep } from 'node:timers/promises';
import { FaultWorld } from './support/fault-world';

/**
 * Redis loses everything twice mid-stream: FLUSHALL, then a restart that comes back empty. Every
 * queued job is gone; PostgreSQL still knows every event and delivery.
 */
describe('faults: Redis flushed and restarted empty', () => {
  let world: FaultWorld;

  beforeAll(async () => {
    world = await FaultWorld.start();
  });
  afterAll(async () => {
    await world?.close();
  });

  it('delivers every acknowledged change from what PostgreSQL holds', async () => {
    const stream = world.changes();
    await sleep(4000);
    await world.redis.flushAll();
    await sleep(4000);
    await world.redis.restart();
    await sleep(4000);
    await stream.stop();

    const { figures, missing } = await world.settle('3 Redis FLUSHALL, then restarted empty', stream);
    expect(figures.acknowledged).toBeGreaterThan(100);
    expect(figures.unverified).toBe(0);
    expect(missing).toEqual([]);
  });
});
